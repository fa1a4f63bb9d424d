"""Delivery: held subscribe connections, and who has received what."""

from .ledger import Delivery
from .subscriptions import HeldConnection, SubscriptionHub, WakeReason

__all__ = ["Delivery", "HeldConnection", "SubscriptionHub", "WakeReason"]
