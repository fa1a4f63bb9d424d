"""A real Home Assistant process as tests reach it: its HTTP and websocket APIs, and onboarding.

`bench/ha_server.py` starts the process (`LaunchedHomeAssistant`: a throwaway configuration,
this checkout's integration linked in, an administrator's long-lived token); this is the client
side that the crash test (tests/test_crash.py) and the browser tests (tests/browser/) share.
"""

from __future__ import annotations

from dataclasses import dataclass
import time
from typing import Any

import aiohttp

from bench.ha_server import CLIMATE_ENTITIES_TEMPLATE, Running, parse_climate_entities
from custom_components.thermostat_cloud.const import DOMAIN, SUBENTRY_THERMOSTAT

ONBOARDING_STEPS = ("user", "core_config", "analytics", "integration")
"""Home Assistant's onboarding steps (homeassistant/components/onboarding/const.py), in order:
until every one is done the UI shows onboarding instead of the dashboard."""


@dataclass(frozen=True, slots=True)
class Owner:
    """The account onboarding creates: the instance owner, who logs in to the UI."""

    name: str = "Alex Owner"
    username: str = "owner"
    password: str = "correct horse battery staple"


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens a browser holds after logging in (Home Assistant's auth API `/auth/token`)."""

    access_token: str
    refresh_token: str
    expires_in: int
    token_type: str
    client_id: str
    issued_ms: int

    def hass_tokens(self, hass_url: str) -> dict[str, Any]:
        """Return the frontend's `hassTokens` localStorage value: a logged-in browser."""
        return {
            "hassUrl": hass_url,
            "clientId": self.client_id,
            "expires": self.issued_ms + self.expires_in * 1000,
            "access_token": self.access_token,
            "refresh_token": self.refresh_token,
            "expires_in": self.expires_in,
            "token_type": self.token_type,
        }


class HomeAssistantClient:
    """Home Assistant's HTTP APIs as the launcher's administrator (a new token each start)."""

    def __init__(self, http: aiohttp.ClientSession, running: Running) -> None:
        """Initialize a client of a running Home Assistant."""
        self.http = http
        self.running = running

    async def call(self, method: str, path: str, json: Any = None, key: str | None = None) -> Any:
        """Return the JSON answer; a key authorises the hosted API instead of the admin's token."""
        token = key or self.running.token
        async with self.http.request(
            method,
            f"{self.running.control_url}{path}",
            json=json,
            headers={"Authorization": f"Bearer {token}"},
        ) as resp:
            body = await resp.json(content_type=None)
            assert resp.status == 200, (method, path, resp.status, body)
            return body

    async def climate_entities(self) -> dict[str, str]:
        """Return serial -> climate entity id of every thermostat Home Assistant shows."""
        async with self.http.post(
            f"{self.running.control_url}/api/template",
            json={"template": CLIMATE_ENTITIES_TEMPLATE},
            headers={"Authorization": f"Bearer {self.running.token}"},
        ) as resp:
            resp.raise_for_status()
            return parse_climate_entities(await resp.text())

    async def websocket(self, command: dict[str, Any]) -> Any:
        """One websocket command's result."""
        async with self.http.ws_connect(f"{self.running.control_url}/api/websocket") as ws:
            assert (await ws.receive_json())["type"] == "auth_required"
            await ws.send_json({"type": "auth", "access_token": self.running.token})
            assert (await ws.receive_json())["type"] == "auth_ok"
            await ws.send_json({"id": 1, **command})
            reply = await ws.receive_json()
            assert reply["success"], reply
            return reply["result"]

    async def climate_entity_of(self, serial: str) -> str:
        """Wait until Home Assistant shows a climate entity for the serial; return its id.

        A `render_template` subscription: Home Assistant sends the template's result at once
        and again whenever a state it reads changes.
        """
        async with self.http.ws_connect(f"{self.running.control_url}/api/websocket") as ws:
            assert (await ws.receive_json())["type"] == "auth_required"
            await ws.send_json({"type": "auth", "access_token": self.running.token})
            assert (await ws.receive_json())["type"] == "auth_ok"
            await ws.send_json(
                {"id": 1, "type": "render_template", "template": CLIMATE_ENTITIES_TEMPLATE}
            )
            while True:
                message = await ws.receive_json()
                if message["type"] == "result":
                    assert message["success"], message
                elif entity_id := parse_climate_entities(message["event"]["result"]).get(serial):
                    return entity_id

    async def promote_http_config(self) -> None:
        """Confirm the YAML `http:` settings.

        Confirm the YAML `http:` settings: Home Assistant 2026.10+ treats new ones as a trial,
        asks in the UI to keep them, and reverts them with a restart after five minutes.
        """
        await self.websocket({"type": "http/config/promote"})

    async def hub_entry_id(self) -> str:
        """Return the id of the Thermostat Cloud hub entry."""
        (entry,) = await self.call("GET", f"/api/config/config_entries/entry?domain={DOMAIN}")
        entry_id: str = entry["entry_id"]
        return entry_id

    async def pair_in_the_flow(self, code: str) -> dict[str, Any]:
        """Pair as the UI's "Add thermostat" does (its menu, then the code); `create_entry`."""
        flow = await self.call(
            "POST",
            "/api/config/config_entries/subentries/flow",
            {"handler": [await self.hub_entry_id(), SUBENTRY_THERMOSTAT]},
        )
        assert flow["type"] == "menu", flow
        step = f"/api/config/config_entries/subentries/flow/{flow['flow_id']}"
        await self.call("POST", step, {"next_step_id": "code"})
        result: dict[str, Any] = await self.call("POST", step, {"code": code})
        assert result["type"] == "create_entry", result
        return result

    async def hosted_serials(self, key: str) -> set[str]:
        """Return what the hosted API lists for a key."""
        body = await self.call("GET", f"/api/{DOMAIN}/api/v1/devices", key=key)
        return {device["serial"] for device in body["devices"]}

    async def status(self, serial: str) -> dict[str, Any]:
        """Return the control API's status record."""
        record: dict[str, Any] = await self.call("GET", f"/api/{DOMAIN}/status?serial={serial}")
        return record

    async def onboard(self, owner: Owner) -> Tokens:
        """Finish onboarding as the UI's onboarding pages do; return the owner's browser tokens.

        Through Home Assistant's onboarding REST API: create the owner (which answers an
        authorization code, exchanged for tokens as the frontend does), then the location,
        analytics and integration steps. The client id is the UI's own origin, as the
        frontend's.
        """
        base = self.running.control_url
        client_id = f"{base}/"
        async with self.http.post(
            f"{base}/api/onboarding/users",
            json={
                "client_id": client_id,
                "name": owner.name,
                "username": owner.username,
                "password": owner.password,
                "language": "en",
            },
        ) as resp:
            body = await resp.json()
            assert resp.status == 200, body
            auth_code = body["auth_code"]
        async with self.http.post(
            f"{base}/auth/token",
            data={"grant_type": "authorization_code", "code": auth_code, "client_id": client_id},
        ) as resp:
            granted = await resp.json()
            assert resp.status == 200, granted
        tokens = Tokens(
            access_token=granted["access_token"],
            refresh_token=granted["refresh_token"],
            expires_in=int(granted["expires_in"]),
            token_type=granted["token_type"],
            client_id=client_id,
            issued_ms=int(time.time() * 1000),
        )
        as_owner = {"Authorization": f"Bearer {tokens.access_token}"}
        for step, body in (
            ("core_config", None),
            ("analytics", None),
            ("integration", {"client_id": client_id, "redirect_uri": f"{base}/?auth_callback=1"}),
        ):
            async with self.http.post(
                f"{base}/api/onboarding/{step}", json=body, headers=as_owner
            ) as resp:
                assert resp.status == 200, (step, resp.status, await resp.text())
        async with self.http.get(f"{base}/api/onboarding") as resp:
            steps = await resp.json()
        assert [s["step"] for s in steps if s["done"]] == list(ONBOARDING_STEPS), steps
        return tokens
