"""Give a fresh `scripts/develop` configuration the Thermostat Cloud hub entry.

Without it, the device server would only start after someone finished onboarding and ran the
config flow; with it, `curl http://127.0.0.1:8000/svc/entry` works as soon as Home Assistant is
up. Writes `<config>/.storage/core.config_entries` only when that file does not exist yet, with
Home Assistant's own ConfigEntry serialization so the format always matches the installed version.
`scripts/bench --home-assistant` seeds its throwaway configuration the same way, on a free port:
`python scripts/dev_seed.py CONFIG_DIR [DEVICE_PORT]`.
"""

from __future__ import annotations

from pathlib import Path
import sys
from types import MappingProxyType

from homeassistant import config_entries
from homeassistant.helpers.json import json_bytes

from custom_components.thermostat_cloud.const import (
    CONF_API_ORIGIN,
    CONF_DEVICE_PORT,
    DEFAULT_DEVICE_PORT,
    DOMAIN,
    TITLE,
)


def main(config_dir: str, device_port: int = DEFAULT_DEVICE_PORT) -> None:
    """Write the hub entry unless the config dir already has config entries.

    Write the hub entry (device server on `device_port`, origin on 127.0.0.1) unless the
    config dir already has config entries.
    """
    path = Path(config_dir) / ".storage" / config_entries.STORAGE_KEY
    if path.exists():
        return
    entry = config_entries.ConfigEntry(
        data={
            CONF_API_ORIGIN: f"http://127.0.0.1:{device_port}",
            CONF_DEVICE_PORT: device_port,
        },
        discovery_keys=MappingProxyType({}),
        domain=DOMAIN,
        minor_version=1,
        options={},
        source=config_entries.SOURCE_USER,
        subentries_data=None,
        title=TITLE,
        unique_id=None,
        version=1,
    )
    document = {
        "version": config_entries.STORAGE_VERSION,
        "minor_version": config_entries.STORAGE_VERSION_MINOR,
        "key": config_entries.STORAGE_KEY,
        "data": {"entries": [entry.as_storage_fragment]},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(json_bytes(document))
    print(f"develop: added the {TITLE} hub entry (device port {device_port})")  # noqa: T201


if __name__ == "__main__":
    main(sys.argv[1], *(int(port) for port in sys.argv[2:3]))
