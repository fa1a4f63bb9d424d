"""The device protocol's headers, each under the brand's name and the spec's.

The spec writes `X-svc-` where the brand stood; the firmware on the wall was built for the
brand and reads and sends `X-nl-` (codykociemba/NoLongerEvil-SelfHosted
`routes/nest/transport.py`, `lib/serial_parser.py`; a proxy capture of a 5.9.4-5 thermostat in
solbirn/Nest.Thermostat `docs/nest-api-schemas.md`). So every answer carries each header under
both names, and a request's header is read under either. HTTP header names are
case-insensitive (the capture writes `X-Nl-Service-Timestamp`), and so is every lookup here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
import re

from ..core import is_firmware_version

BRAND_PREFIX = "X-nl-"
SPEC_PREFIX = "X-svc-"


@dataclass(frozen=True, slots=True)
class ProtocolHeader:
    """One protocol header: its name after the prefix, and its two full names."""

    suffix: str
    names: tuple[str, str] = field(init=False, repr=False, compare=False)
    """Both names, the brand's first (it wins when a request carries both)."""

    def __post_init__(self) -> None:
        """Build both names once: they are read on every request."""
        object.__setattr__(self, "names", (BRAND_PREFIX + self.suffix, SPEC_PREFIX + self.suffix))

    @property
    def brand(self) -> str:
        """The name firmware uses (`X-nl-...`)."""
        return self.names[0]

    @property
    def spec(self) -> str:
        """The spec's name (`X-svc-...`)."""
        return self.names[1]

    def both(self, value: str) -> dict[str, str]:
        """Return the header under both names, for an answer."""
        return dict.fromkeys(self.names, value)

    def read(self, headers: Mapping[str, str]) -> str | None:
        """Return the value under either name (stripped); None when absent or blank."""
        for name in self.names:
            if (value := headers.get(name)) is not None and (value := value.strip()):
                return value
        return None


# Server -> device, on every answer.
SUSPEND_TIME_MAX = ProtocolHeader("suspend-time-max")
"""Seconds firmware may sleep on a held subscribe; without it, a much longer sleep."""
SERVICE_TIMESTAMP = ProtocolHeader("service-timestamp")
"""The server's clock (ms); firmware's clock follows it, and manual eco is dropped when its
`manual_eco_timestamp` is more than 600 s off that clock."""
DEFER_DEVICE_WINDOW = ProtocolHeader("defer-device-window")
"""Seconds firmware waits before PUTting local changes."""
# Server -> device, with an immediate push of setpoints or the mode only.
DISABLE_DEFER_WINDOW = ProtocolHeader("disable-defer-window")
"""Seconds firmware sends its changes at once (its acknowledgement of the push among them)."""
# Server -> device, naming the one bucket a firmware 4.x subscribe is answered with.
SKV_KEY = ProtocolHeader("skv-key")
"""The bucket's key (`shared.<serial>`); the body is its value alone."""
SKV_VERSION = ProtocolHeader("skv-version")
"""The bucket's revision."""
SKV_TIMESTAMP = ProtocolHeader("skv-timestamp")
"""The bucket's timestamp (ms)."""
# Device -> server.
CLIENT_ID = ProtocolHeader("client-id")
"""`d.{SERIAL}.{suffix}`, when the request has no Basic credentials."""
DEVICE_ID = ProtocolHeader("device-id")
"""The bare serial (entry requests without Basic credentials)."""
PROTOCOL_VERSION = ProtocolHeader("protocol-version")
"""`1` on subscribe and PUT."""
DEVICE_SWVERSION = ProtocolHeader("device-swversion")
"""The firmware version (`5.9.4-5`)."""

ANSWER_HEADERS = (SUSPEND_TIME_MAX, SERVICE_TIMESTAMP, DEFER_DEVICE_WINDOW)
PROTOCOL_HEADERS = (
    *ANSWER_HEADERS,
    DISABLE_DEFER_WINDOW,
    SKV_KEY,
    SKV_VERSION,
    SKV_TIMESTAMP,
    CLIENT_ID,
    DEVICE_ID,
    PROTOCOL_VERSION,
    DEVICE_SWVERSION,
)

# `<product>/<version> (<model>; ...)`: `AddLightness/5.9.4-5 (Display-2.12;
# wireless_reg_domain=A2)` in the 5.9.4-5 capture; 4.x logs its client as
# `4.2.5 (Display-2.12; wireless_reg_domain=A2)` (NoLongerEvil-Thermostat issue #213).
# The model in parentheses is required: `Python/3.14 aiohttp/3.13` is not a thermostat.
_USER_AGENT_VERSION_RE = re.compile(r"^[^/\s]+/(\d+\.\d+\.\d+(?:-\d+)?) \(")


def reported_firmware_version(headers: Mapping[str, str]) -> str | None:
    """Return the firmware version a request reports (version header, else User-Agent)."""
    version = DEVICE_SWVERSION.read(headers)
    if version is None:
        match = _USER_AGENT_VERSION_RE.match(headers.get("User-Agent", "").strip())
        version = match.group(1) if match else None
    return version if version is not None and is_firmware_version(version) else None
