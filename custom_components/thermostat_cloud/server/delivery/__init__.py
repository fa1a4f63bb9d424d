"""Delivery: held subscribe connections, who has received what, and writing it to them."""

from .ledger import Delivery
from .subscriptions import HeldConnection, PushSink, SkvSink, SubscriptionHub

__all__ = ["Delivery", "HeldConnection", "PushSink", "SkvSink", "SubscriptionHub"]
