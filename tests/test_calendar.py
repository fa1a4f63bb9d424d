"""The calendar platform: its entities of a paired thermostat and of the home."""

from __future__ import annotations

from homeassistant.const import Platform

from .platform_snapshots import platform_snapshot_test

test_entities = platform_snapshot_test(Platform.CALENDAR)
