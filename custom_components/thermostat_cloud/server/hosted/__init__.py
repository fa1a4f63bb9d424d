"""The hosted API surface (`/api/v1`), behind API keys."""

from .api import HostedApi

__all__ = ["HostedApi"]
