"""scripts/dev_seed.py gives a fresh development config a hub entry Home Assistant can read."""

from __future__ import annotations

import json
from pathlib import Path

from homeassistant import config_entries

from custom_components.thermostat_cloud.const import CONF_API_ORIGIN, CONF_DEVICE_PORT, DOMAIN

from .scripts import load_script


def test_seed_writes_the_hub_entry_once(tmp_path: Path) -> None:
    module = load_script("dev_seed")

    module.main(str(tmp_path))
    path = tmp_path / ".storage" / config_entries.STORAGE_KEY
    document = json.loads(path.read_text())
    assert document["version"] == config_entries.STORAGE_VERSION
    assert document["minor_version"] == config_entries.STORAGE_VERSION_MINOR
    (entry,) = document["data"]["entries"]
    assert entry["domain"] == DOMAIN
    assert entry["data"] == {CONF_API_ORIGIN: "http://127.0.0.1:8000", CONF_DEVICE_PORT: 8000}

    path.write_text("{}")  # an existing config is left alone
    module.main(str(tmp_path))
    assert path.read_text() == "{}"


def test_seed_takes_another_device_port(tmp_path: Path) -> None:
    module = load_script("dev_seed")

    module.main(str(tmp_path), 18123)

    document = json.loads((tmp_path / ".storage" / config_entries.STORAGE_KEY).read_text())
    (entry,) = document["data"]["entries"]
    assert entry["data"] == {CONF_API_ORIGIN: "http://127.0.0.1:18123", CONF_DEVICE_PORT: 18123}
