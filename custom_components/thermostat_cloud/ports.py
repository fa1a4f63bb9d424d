"""The ports the flows ask for: how the form asks for one, and whether it binds.

The device port (the hub's setup and reconfigure) and the open control API's port (options).
"""

from __future__ import annotations

import socket

from homeassistant.helpers import selector

PORT_SELECTOR = selector.NumberSelector(
    selector.NumberSelectorConfig(min=1, max=65535, step=1, mode=selector.NumberSelectorMode.BOX)
)


def port_free(port: int) -> bool:
    """Whether a TCP port can be bound on all interfaces right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("", port))
        except OSError:
            # In use, or not ours to bind (privileged): the form says so, never a traceback.
            return False
    return True
