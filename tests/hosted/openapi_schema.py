"""Just enough JSON Schema (the subset the OpenAPI document uses) to check real responses."""

from __future__ import annotations

import json
import re
from typing import Any

from custom_components.thermostat_cloud.server.hosted.api import OPENAPI_DOCUMENT

DOCUMENT: dict[str, Any] = json.loads(OPENAPI_DOCUMENT.read_text(encoding="utf-8"))
HTTP_METHODS = ("get", "post", "put", "delete", "patch")

_JSON_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local `$ref` (repeatedly)."""
    while "$ref" in node:
        target: Any = DOCUMENT
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def schema_errors(schema: dict[str, Any], value: Any, where: str = "$") -> list[str]:
    """Why `value` does not match `schema` (empty when it does)."""
    schema = resolve(schema)
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not schema_errors(s, value, where)]
        return [] if len(matching) == 1 else [f"{where}: matches {len(matching)} of oneOf"]
    errors: list[str] = []
    if "const" in schema and not (
        type(value) is type(schema["const"]) and value == schema["const"]
    ):
        errors.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in {schema['enum']}")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_JSON_TYPES[t](value) for t in types):
            return [*errors, f"{where}: {value!r} is not {types}"]
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{where}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{where}: {value} > {schema['maximum']}")
    if isinstance(value, dict):
        errors += [
            f"{where}: {name} missing" for name in schema.get("required", []) if name not in value
        ]
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames", {})
        for name, item in value.items():
            if "enum" in names and name not in names["enum"]:
                errors.append(f"{where}: key {name!r} not allowed")
            if "pattern" in names and not re.search(names["pattern"], name):
                errors.append(f"{where}: key {name!r} does not match {names['pattern']}")
            if name in properties:
                errors += schema_errors(properties[name], item, f"{where}.{name}")
            elif extra is False:
                errors.append(f"{where}: unexpected {name}")
            elif isinstance(extra, dict):
                errors += schema_errors(extra, item, f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            errors += schema_errors(schema["items"], item, f"{where}[{index}]")
    return errors


def _template_matches(template: str, path: str) -> bool:
    parts, segments = template.strip("/").split("/"), path.strip("/").split("/")
    return len(parts) == len(segments) and all(
        (p.startswith("{") and bool(s)) or p == s for p, s in zip(parts, segments, strict=True)
    )


def operation(method: str, path: str) -> dict[str, Any] | None:
    """Return the documented operation for a request path under the server URL, if any."""
    for template, item in DOCUMENT["paths"].items():
        if _template_matches(template, path) and method.lower() in item:
            return dict(item[method.lower()])
    return None


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    """Every documented (METHOD, path template, operation)."""
    return [
        (method.upper(), template, item[method])
        for template, item in DOCUMENT["paths"].items()
        for method in HTTP_METHODS
        if method in item
    ]


def response_errors(method: str, path: str, status: int, body: Any, headers: Any) -> list[str]:
    """How a real response departs from the document (empty when it conforms)."""
    op = operation(method, path)
    errors = [
        f"missing header {name}"
        for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
        if name not in headers
    ]
    if op is None:  # not an operation: unknown path or method, always the error shape
        return errors + schema_errors({"$ref": "#/components/schemas/Error"}, body)
    documented = resolve(op["responses"]).get(str(status))
    if documented is None:
        return [*errors, f"{method} {path}: status {status} is not documented"]
    schema = resolve(documented)["content"]["application/json"]["schema"]
    return errors + schema_errors(schema, body)
