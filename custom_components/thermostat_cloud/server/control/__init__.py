"""The self-hosted control API surface: its handlers, served by the host or on their own port."""

from .api import ControlApi, ControlListener, ControlRoute

__all__ = ["ControlApi", "ControlListener", "ControlRoute"]
