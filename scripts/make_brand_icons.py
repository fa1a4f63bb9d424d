"""Draw the integration's brand icons (a thermostat dial around a cloud) with the stdlib only.

Writes custom_components/thermostat_cloud/brand/icon.png (256x256) and icon@2x.png (512x512):
RGBA on a transparent background, anti-aliased with signed distance fields.
Run from the repository root: `.venv/bin/python scripts/make_brand_icons.py`.
"""

from __future__ import annotations

from collections.abc import Callable
import colorsys
import math
from pathlib import Path
import struct
import zlib

BRAND_DIR = Path(__file__).resolve().parent.parent / "custom_components/thermostat_cloud/brand"

Color = tuple[float, float, float]
# A layer: signed distance (in icon units, negative inside) and colour at a point.
Layer = tuple[Callable[[float, float], float], Callable[[float, float], Color]]

DIAL = (0.12, 0.16, 0.21)
TRACK = (0.23, 0.28, 0.34)
WHITE = (1.0, 1.0, 1.0)

ARC_START = math.radians(135)  # gauge runs clockwise on screen from lower left...
ARC_SWEEP = math.radians(270)  # ...to lower right, with the gap at the bottom
SETPOINT = 0.68  # fraction of the sweep that is lit
RING_R = 0.355
RING_W = 0.042  # half thickness


def circle(cx: float, cy: float, r: float) -> Callable[[float, float], float]:
    """Return the signed distance to a circle."""
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def arc(fraction: float) -> Callable[[float, float], float]:
    """Ring segment from ARC_START over `fraction` of ARC_SWEEP, with round caps."""
    end = ARC_START + ARC_SWEEP * fraction
    caps = [(RING_R * math.cos(a), RING_R * math.sin(a)) for a in (ARC_START, end)]

    def dist(x: float, y: float) -> float:
        along = (math.atan2(y, x) - ARC_START) % math.tau
        if along <= ARC_SWEEP * fraction:
            return abs(math.hypot(x, y) - RING_R) - RING_W
        return min(math.hypot(x - cx, y - cy) for cx, cy in caps) - RING_W

    return dist


def cloud(x: float, y: float) -> float:
    """Return the signed distance to the cloud shape."""
    lobes = (
        circle(-0.095, 0.035, 0.068)(x, y),
        circle(0.0, -0.02, 0.098)(x, y),
        circle(0.095, 0.035, 0.068)(x, y),
    )
    # Flat-bottomed base joining the lobes (rounded box from x -0.095..0.095, y 0.035..0.103).
    qx = abs(x) - 0.095
    qy = abs(y - 0.069) - 0.034
    box = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0)
    return min(*lobes, box)


def gradient(x: float, y: float) -> Color:
    """Cold blue at the start of the gauge through green and amber to warm red at the setpoint."""
    along = (math.atan2(y, x) - ARC_START) % math.tau
    if along > (ARC_SWEEP + math.tau) / 2:  # the start cap, just before ARC_START
        along = 0.0
    t = min(along / (ARC_SWEEP * SETPOINT), 1.0)
    return colorsys.hsv_to_rgb(0.58 - 0.56 * t, 0.82, 0.97)


def solid(color: Color) -> Callable[[float, float], Color]:
    """Return a fill of one colour."""
    return lambda _x, _y: color


knob_angle = ARC_START + ARC_SWEEP * SETPOINT
LAYERS: list[Layer] = [
    (circle(0.0, 0.0, 0.47), solid(DIAL)),
    (arc(1.0), solid(TRACK)),
    (arc(SETPOINT), gradient),
    (circle(RING_R * math.cos(knob_angle), RING_R * math.sin(knob_angle), 0.062), solid(WHITE)),
    (cloud, solid(WHITE)),
]


def render(size: int) -> bytes:
    """Raw PNG scanlines (filter byte 0 + RGBA) of the icon at size x size pixels."""
    rows = bytearray()
    for py in range(size):
        rows.append(0)
        y = (py + 0.5) / size - 0.5
        for px in range(size):
            x = (px + 0.5) / size - 0.5
            r = g = b = a = 0.0  # premultiplied
            for dist, paint in LAYERS:
                cover = min(max(0.5 - dist(x, y) * size, 0.0), 1.0)
                if cover > 0.0:
                    cr, cg, cb = paint(x, y)
                    r = cr * cover + r * (1 - cover)
                    g = cg * cover + g * (1 - cover)
                    b = cb * cover + b * (1 - cover)
                    a = cover + a * (1 - cover)
            if a > 0.0:
                rows += bytes(round(c / a * 255) for c in (r, g, b)) + bytes([round(a * 255)])
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int) -> bytes:
    """Return the icon as a PNG file of the given size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(render(size), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    """Write the brand icons."""
    BRAND_DIR.mkdir(parents=True, exist_ok=True)
    for name, size in (("icon.png", 256), ("icon@2x.png", 512)):
        (BRAND_DIR / name).write_bytes(png(size))


if __name__ == "__main__":
    main()
