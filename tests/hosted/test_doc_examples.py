"""The hosted API's documented examples are what the server answers (docs/hosted-api.md)."""

from __future__ import annotations

from typing import Any

from tests.docs_pages import differences, examples_of

from .conftest import Paired, device_id

# Values that differ from run to run: compared by their type only.
VARYING = {"id", "revision", "timestamp", "object_revision", "object_timestamp", "created_at"}


async def test_every_documented_request_gets_the_documented_answer(paired: Paired) -> None:
    """Each example's request, sent as documented with a read-write key, is answered so.

    `{deviceId}` in a path is the paired thermostat's id; every answer is also checked against
    the OpenAPI document (by the test client).
    """
    api, service, _, key = paired
    examples = examples_of("hosted")
    assert ("GET", "/thermostat/{deviceId}/status") in examples, "the status example is missing"
    problems: list[str] = []
    for (method, path), roles in examples.items():
        assert "answer" in roles, f"{method} {path}: a request without its answer"
        body: Any = roles["request"].block.json if "request" in roles else None
        url = path.replace("{deviceId}", device_id(service))
        response, answer_body = await api.request(method, url, key, body)
        answer = roles["answer"]
        problems += [
            f"{answer.block.where} {method} {path}{problem}"
            for problem in differences(answer.block.json, answer_body, VARYING, answer.shape_only)
        ]
        if response.status != 200:
            problems.append(f"{answer.block.where} {method} {path}: status {response.status}")
    assert not problems, "\n".join(problems)
