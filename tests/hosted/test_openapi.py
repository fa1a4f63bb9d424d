"""The OpenAPI document matches what the server does.

Every response in every hosted test is already checked against the document by HostedClient
(documented status, body schema, rate-limit headers). Here: the document is served, its
operations are exactly the server's routes, every documented status of every operation really
happens, and every required body field is really required.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
import json
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant

from custom_components.thermostat_cloud.entry_data import ThermostatCloudConfigEntry
from custom_components.thermostat_cloud.hosted_api import HOSTED_API_URL
from custom_components.thermostat_cloud.server.hosted.api import OPENAPI_DOCUMENT, ROUTES
from custom_components.thermostat_cloud.server.model.api_keys import Scope

from .conftest import CreateKey, HostedClient, Paired, device_id
from .openapi_schema import operations, resolve, schema_errors

UNKNOWN_DEVICE = "5e0c1c34-0000-4000-8000-000000000000"


async def test_document_is_served_without_a_key(api: HostedClient) -> None:
    response, body = await api.get("/openapi.json")

    assert response.status == 200
    assert body == json.loads(OPENAPI_DOCUMENT.read_text(encoding="utf-8"))
    assert body["openapi"].startswith("3.1.")
    assert body["servers"] == [{"url": HOSTED_API_URL}]


def test_operations_are_exactly_the_routes() -> None:
    documented = {(method, path): op.get("x-scope") for method, path, op in operations()}
    routed = {
        (route.method, route.path): None if route.scope is None else str(route.scope)
        for route in ROUTES
    }

    assert documented == routed
    assert len(ROUTES) == len(routed)  # no route registered twice


def test_every_operation_is_described() -> None:
    ids = [op["operationId"] for _, _, op in operations()]
    assert len(ids) == len(set(ids))
    for method, path, op in operations():
        assert op["summary"], (method, path)
        if "{deviceId}" in path:
            assert [p["name"] for p in op["parameters"]] == ["deviceId"]
        assert (op.get("security") == []) == (op["x-scope"] is None)


async def test_home_assistant_routes_every_documented_method(
    hass: HomeAssistant, hub_entry: ThermostatCloudConfigEntry
) -> None:
    """One view answers every path under the prefix, for every documented method."""
    methods: set[str] = set()
    for resource in hass.http.app.router.resources():
        if resource.canonical.startswith(HOSTED_API_URL):
            assert resource.canonical == f"{HOSTED_API_URL}/{{path}}"
            methods |= {route.method for route in resource}
    assert {method for method, _, _ in operations()} <= methods


def _examples(op: dict[str, Any]) -> list[dict[str, Any]]:
    if "requestBody" not in op:
        return [{}]
    media = op["requestBody"]["content"]["application/json"]
    return [example["value"] for example in media["examples"].values()]


def _required_fields(op: dict[str, Any], example: dict[str, Any]) -> list[str]:
    """Return required fields of the request schema branch the example matches."""
    schema = resolve(op["requestBody"]["content"]["application/json"]["schema"])
    branches = schema.get("oneOf", [schema])
    matching = [resolve(b) for b in branches if not schema_errors(b, example)]
    assert len(matching) == 1, f"{op['operationId']}: example {example} matches {len(matching)}"
    return list(matching[0]["required"])


def _ordered_operations() -> list[tuple[str, str, dict[str, Any]]]:
    """DELETE last: its success unpairs the device the other operations use."""
    return sorted(operations(), key=lambda item: item[0] == "DELETE")


async def test_every_documented_response_happens(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hub_entry: ThermostatCloudConfigEntry,
    paired: Paired,
    make_key: CreateKey,
) -> None:
    freezer.move_to(datetime(2027, 1, 15, 8, 0, tzinfo=UTC))
    api, service, _, key = paired
    # For each scope, a key that lacks it.
    scoped = {Scope.READ: await make_key(["write"]), Scope.WRITE: await make_key(["read"])}
    seen: dict[str, set[int]] = defaultdict(set)

    def path_for(template: str, device: str) -> str:
        return template.replace("{deviceId}", device)

    for method, template, op in _ordered_operations():
        name = op["operationId"]
        path = path_for(template, device_id(service))
        examples = _examples(op)
        public = op["x-scope"] is None

        async def send(
            body: dict[str, Any] | None,
            with_key: str | None = key,
            to: str = path,
            method: str = method,
        ) -> int:
            response, _ = await api.request(method, to, with_key, body if body else None)
            return response.status

        if not public:
            seen[name].add(await send(examples[0], None))
            seen[name].add(await send(examples[0], scoped[Scope(op["x-scope"])]))
            if "{deviceId}" in template:
                seen[name].add(await send(examples[0], to=path_for(template, UNKNOWN_DEVICE)))
        for example in examples if "requestBody" in op else []:
            assert not schema_errors(
                op["requestBody"]["content"]["application/json"]["schema"], example
            ), name
            for field in _required_fields(op, example):
                without = {k: v for k, v in example.items() if k != field}
                status = await send(without)
                assert status == 400, f"{name}: without {field} gave {status}"
                seen[name].add(status)
        for example in examples:
            status = await send(example)
            assert status == 200, f"{name}: example {example} gave {status}"
            seen[name].add(status)
        while (status := await send(examples[0])) != 429:
            assert status == 200 or method == "DELETE", name
        seen[name].add(status)
        freezer.tick(timedelta(seconds=61))

    assert await hass.config_entries.async_unload(hub_entry.entry_id)
    for method, template, op in operations():
        response, _ = await api.request(method, path_for(template, UNKNOWN_DEVICE), key)
        if op["x-scope"] is not None:
            seen[op["operationId"]].add(response.status)

    documented = {
        op["operationId"]: {int(status) for status in op["responses"]} for _, _, op in operations()
    }
    assert dict(seen) == documented
