"""The control API's documented examples are what the server answers (docs/control-api.md)."""

from __future__ import annotations

from typing import Any

from tests.conftest import SERIAL, THERMOSTAT_DEVICE, THERMOSTAT_SHARED
from tests.docs_pages import differences, examples_of

from .conftest import URL, Client, ConnectThermostat

# Values that differ from run to run: compared by their type only.
VARYING = {"last_seen", "structure_id", "revision", "timestamp"}
# Pairing first: the other examples are of a paired thermostat.
FIRST = ("POST", "/api/register")


async def test_every_documented_request_gets_the_documented_answer(
    client: Client, connect_thermostat: ConnectThermostat
) -> None:
    """Each example's request, sent as documented, is answered as documented.

    The thermostat is one that reported its full state (as firmware does after a restart);
    the register example's code is replaced by the one it shows.
    """
    examples = examples_of("control")
    assert FIRST in examples, "the pairing example is missing"
    assert ("POST", "/command") in examples, "the command example is missing"
    thermostat = await connect_thermostat(
        SERIAL, shared=THERMOSTAT_SHARED, device=THERMOSTAT_DEVICE
    )
    code = (await thermostat.passphrase())["value"]
    problems: list[str] = []
    for method, path in sorted(examples, key=lambda request: request != FIRST):
        roles = examples[method, path]
        assert "answer" in roles, f"{method} {path}: a request without its answer"
        body: Any = None
        if "request" in roles:
            body = roles["request"].block.json
            if (method, path) == FIRST:
                body = {**body, "code": code}
        response = await client.request(method, f"{URL}{path}", json=body)
        answer = roles["answer"]
        problems += [
            f"{answer.block.where} {method} {path}{problem}"
            for problem in differences(
                answer.block.json, await response.json(), VARYING, answer.shape_only
            )
        ]
        if response.status != 200:
            problems.append(f"{answer.block.where} {method} {path}: status {response.status}")
    assert not problems, "\n".join(problems)
