"""Static checks of the integration's metadata, the ones hassfest and the HACS action make.

Pure file checks: no Home Assistant instance is started. A missing file (strings.json,
services.yaml, icons.json, the integration's code) is a failure, never a skip.
"""

from __future__ import annotations

import json
from pathlib import Path
import re
import struct
import tomllib
from typing import Any

from awesomeversion import AwesomeVersion, AwesomeVersionStrategy
import homeassistant.components
from homeassistant.const import __version__ as ha_version
from homeassistant.util.yaml import load_yaml_dict
import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPONENTS = ROOT / "custom_components"
DOMAIN = "thermostat_cloud"
INTEGRATION = COMPONENTS / DOMAIN
STRINGS = INTEGRATION / "strings.json"
SERVICES = INTEGRATION / "services.yaml"

# hassfest's manifest schema, custom-integration flavour.
REQUIRED_KEYS = {
    "domain",
    "name",
    "codeowners",
    "config_flow",
    "dependencies",
    "documentation",
    "integration_type",
    "iot_class",
    "issue_tracker",
    "requirements",
    "version",
}
KNOWN_KEYS = REQUIRED_KEYS | {
    "after_dependencies",
    "bluetooth",
    "dhcp",
    "disabled",
    "homekit",
    "import_executor",
    "loggers",
    "mqtt",
    "quality_scale",
    "single_config_entry",
    "ssdp",
    "usb",
    "zeroconf",
}
IOT_CLASSES = {
    "assumed_state",
    "calculated",
    "cloud_polling",
    "cloud_push",
    "local_polling",
    "local_push",
}
INTEGRATION_TYPES = {
    "device",
    "entity",
    "hardware",
    "helper",
    "hub",
    "service",
    "system",
    "virtual",
}
# Version strategies Home Assistant's loader accepts for a custom integration.
VERSION_STRATEGIES = [
    AwesomeVersionStrategy.CALVER,
    AwesomeVersionStrategy.SEMVER,
    AwesomeVersionStrategy.SIMPLEVER,
    AwesomeVersionStrategy.BUILDVER,
    AwesomeVersionStrategy.PEP440,
]
# Keys the HACS action accepts in hacs.json.
HACS_KEYS = {
    "name",
    "content_in_root",
    "zip_release",
    "filename",
    "hide_default_branch",
    "country",
    "homeassistant",
    "hacs",
    "persistent_directory",
    "render_readme",
}
# Top-level sections of an integration's strings.json that Home Assistant knows.
STRINGS_SECTIONS = {
    "title",
    "common",
    "config",
    "config_subentries",
    "options",
    "selector",
    "services",
    "entity",
    "entity_component",
    "device",
    "device_automation",
    "exceptions",
    "issues",
    "system_health",
    "conversation",
    "application_credentials",
    "preview_features",
}


def load_json(path: Path) -> Any:
    """Return the parsed JSON of a file."""
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    """Return the integration's manifest."""
    data = load_json(INTEGRATION / "manifest.json")
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def strings() -> dict[str, Any]:
    """Return the integration's strings.json."""
    assert STRINGS.is_file(), "strings.json is missing"
    data = load_json(STRINGS)
    assert isinstance(data, dict)
    return data


def png_size(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type of a PNG file (asserting it is one)."""
    head = path.read_bytes()[:33]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG file"
    length, kind = struct.unpack(">I4s", head[8:16])
    assert (length, kind) == (13, b"IHDR"), f"{path.name} has no IHDR chunk first"
    width, height, _depth, color_type = struct.unpack(">IIBB", head[16:26])
    return width, height, color_type


def test_exactly_one_integration() -> None:
    """HACS installs the one integration in custom_components/."""
    dirs = [
        p.name
        for p in COMPONENTS.iterdir()
        if p.is_dir() and p.name != "__pycache__" and not p.name.startswith(".")
    ]
    assert dirs == [DOMAIN]


def test_manifest_keys(manifest: dict[str, Any]) -> None:
    """Home Assistant's loader and hassfest find every manifest key they need and none they refuse."""
    assert manifest.keys() >= REQUIRED_KEYS, f"missing: {REQUIRED_KEYS - manifest.keys()}"
    assert manifest.keys() <= KNOWN_KEYS, f"unknown: {manifest.keys() - KNOWN_KEYS}"


def test_manifest_key_order(manifest: dict[str, Any]) -> None:
    """Hassfest wants domain and name first, then the other keys in alphabetical order."""
    keys = list(manifest)
    assert keys[:2] == ["domain", "name"]
    assert keys[2:] == sorted(keys[2:])


def test_manifest_values(manifest: dict[str, Any]) -> None:
    """The manifest's values are ones Home Assistant and HACS accept."""
    assert manifest["domain"] == DOMAIN
    assert manifest["name"] == "Thermostat Cloud"
    assert manifest["iot_class"] in IOT_CLASSES
    assert manifest["integration_type"] in INTEGRATION_TYPES
    assert "http" in manifest["dependencies"]
    assert all(isinstance(req, str) and req for req in manifest["requirements"])
    assert manifest["codeowners"]
    assert all(owner.startswith("@") for owner in manifest["codeowners"])
    for key in ("documentation", "issue_tracker"):
        assert manifest[key].startswith("https://"), key


def test_manifest_version(manifest: dict[str, Any]) -> None:
    # Raises if Home Assistant's loader would refuse the version.
    """Home Assistant can read the version, and HACS shows the one the project releases."""
    version = AwesomeVersion(manifest["version"], ensure_strategy=VERSION_STRATEGIES)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert version == AwesomeVersion(project["version"]), "manifest and pyproject versions differ"


def test_config_flow_module(manifest: dict[str, Any]) -> None:
    """The integration is set up from the UI, as its manifest says."""
    assert (INTEGRATION / "__init__.py").is_file(), "the integration's __init__.py is missing"
    assert manifest["config_flow"] is True
    assert (INTEGRATION / "config_flow.py").is_file()


def test_hacs_json(manifest: dict[str, Any]) -> None:
    """HACS accepts hacs.json and offers the integration only to a Home Assistant it supports."""
    hacs = load_json(ROOT / "hacs.json")
    assert hacs.keys() <= HACS_KEYS, f"unknown: {hacs.keys() - HACS_KEYS}"
    assert hacs["name"] == manifest["name"]
    minimum = AwesomeVersion(hacs["homeassistant"])
    assert minimum.strategy == AwesomeVersionStrategy.CALVER
    # The tests run against the Home Assistant that pytest-homeassistant-custom-component pins:
    # the minimum HACS advertises must not be newer than that.
    assert minimum <= AwesomeVersion(ha_version)
    assert isinstance(hacs.get("render_readme", False), bool)


@pytest.mark.parametrize(("name", "size"), [("icon.png", 256), ("icon@2x.png", 512)])
def test_brand_icon(name: str, size: int) -> None:
    width, height, color_type = png_size(INTEGRATION / "brand" / name)
    assert (width, height) == (size, size)
    assert color_type == 6, "icons should be RGBA (transparent background)"


def test_translations_match_strings(strings: dict[str, Any]) -> None:
    """A custom integration ships translations/en.json as is: it must equal strings.json."""
    en = INTEGRATION / "translations" / "en.json"
    assert en.is_file(), "translations/en.json is missing"
    assert load_json(en) == strings


def test_strings_sections(strings: dict[str, Any]) -> None:
    """Every section of strings.json is one Home Assistant reads; a misspelt one would show nothing."""
    assert strings.keys() <= STRINGS_SECTIONS, f"unknown: {strings.keys() - STRINGS_SECTIONS}"


def test_no_key_references(strings: dict[str, Any]) -> None:
    """Users never see a raw translation key reference.

    `[%key:...%]` references are resolved only by Home Assistant core's translation build;
    in a custom integration they would reach the user literally.
    """
    for path in (STRINGS, *sorted((INTEGRATION / "translations").glob("*.json"))):
        assert "[%key:" not in path.read_text(encoding="utf-8"), path.name


def test_services_documented(strings: dict[str, Any]) -> None:
    """Every action and field has a name, description and icon in the UI.

    Each service in services.yaml, and each of its fields and sections, has a name and a
    description in strings.json and an icon in icons.json (hassfest checks both).
    """
    assert SERVICES.is_file(), "services.yaml is missing"
    services = load_yaml_dict(SERVICES)
    texts = strings.get("services", {})
    icons_path = INTEGRATION / "icons.json"
    assert icons_path.is_file(), "icons.json is missing"
    icons = load_json(icons_path).get("services", {})

    for service, schema in services.items():
        text = texts.get(service)
        assert isinstance(text, dict), f"strings.json has no services.{service}"
        assert text.get("name"), f"services.{service}.name is missing"
        assert text.get("description"), f"services.{service}.description is missing"
        icon = icons.get(service)
        assert icon, f"icons.json has no services.{service}"
        if isinstance(icon, dict):
            assert icon.get("service"), f"icons.json services.{service}.service is missing"

        fields: dict[str, Any] = dict((schema or {}).get("fields") or {})
        for key, field in list(fields.items()):
            if isinstance(field, dict) and "fields" in field:  # a section of fields
                del fields[key]
                section = text.get("sections", {}).get(key, {})
                assert section.get("name"), f"services.{service}.sections.{key}.name is missing"
                fields.update(field["fields"] or {})
        for field in fields:
            field_text = text.get("fields", {}).get(field, {})
            for attr in ("name", "description"):
                assert field_text.get(attr), f"services.{service}.fields.{field}.{attr} is missing"
        stale = text.get("fields", {}).keys() - fields.keys()
        assert not stale, f"services.{service} describes fields it does not have: {stale}"

    stale_services = texts.keys() - services.keys()
    assert not stale_services, f"strings.json describes unknown services: {stale_services}"


# The rules of Home Assistant's integration quality scale, by tier, as core's hassfest defines
# them (script/hassfest/quality_scale.py, ALL_RULES; not part of the installed package).
QUALITY_SCALE_RULES = {
    "bronze": [
        "action-setup",
        "appropriate-polling",
        "brands",
        "common-modules",
        "config-flow",
        "config-flow-test-coverage",
        "dependency-transparency",
        "docs-actions",
        "docs-conditions",
        "docs-high-level-description",
        "docs-installation-instructions",
        "docs-removal-instructions",
        "docs-triggers",
        "entity-event-setup",
        "entity-unique-id",
        "has-entity-name",
        "runtime-data",
        "test-before-configure",
        "test-before-setup",
        "unique-config-entry",
    ],
    "silver": [
        "action-exceptions",
        "config-entry-unloading",
        "docs-configuration-parameters",
        "docs-installation-parameters",
        "entity-unavailable",
        "integration-owner",
        "log-when-unavailable",
        "parallel-updates",
        "reauthentication-flow",
        "test-coverage",
    ],
    "gold": [
        "devices",
        "diagnostics",
        "discovery",
        "discovery-update-info",
        "docs-data-update",
        "docs-examples",
        "docs-known-limitations",
        "docs-supported-devices",
        "docs-supported-functions",
        "docs-troubleshooting",
        "docs-use-cases",
        "dynamic-devices",
        "entity-category",
        "entity-device-class",
        "entity-disabled-by-default",
        "entity-translations",
        "exception-translations",
        "icon-translations",
        "reconfiguration-flow",
        "repair-issues",
        "stale-devices",
    ],
    "platinum": ["async-dependency", "inject-websession", "strict-typing"],
}
ALL_QUALITY_SCALE_RULES = {rule for rules in QUALITY_SCALE_RULES.values() for rule in rules}


MDI = ROOT / "frontend" / "node_modules" / "@mdi" / "js" / "mdi.js"
"""The Material Design Icons the card is built with: 7.4.47, the version Home Assistant's
frontend ships (an icon it lacks shows as a blank space)."""


def _icon_names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [name for inner in value.values() for name in _icon_names(inner)]
    return []


def test_every_icon_is_in_home_assistants_icon_set() -> None:
    """Every `mdi:` icon of icons.json exists in the icon set (`mdi:thermometer-lock` did not)."""
    assert MDI.is_file(), "The card's npm packages are missing: run scripts/setup (npm ci)"
    shipped = set(re.findall(r"^export var (mdi\w+) =", MDI.read_text(), re.MULTILINE))
    assert "mdiThermometer" in shipped
    used = _icon_names(load_json(INTEGRATION / "icons.json"))
    assert used
    missing = [
        name
        for name in used
        if "mdi" + "".join(part.capitalize() for part in name.removeprefix("mdi:").split("-"))
        not in shipped
    ]
    assert missing == []


def test_quality_scale_rules_are_cores() -> None:
    """The quality scale rule list is the one the installed Home Assistant's integrations use.

    hassfest makes every core integration's quality_scale.yaml name every rule, so a Home
    Assistant release that adds or renames a rule fails here until the list is updated.
    """
    components = Path(homeassistant.components.__path__[0])
    used: set[str] = set()
    for path in components.glob("*/quality_scale.yaml"):
        used |= load_yaml_dict(path)["rules"].keys()
    assert used == ALL_QUALITY_SCALE_RULES


def test_quality_scale_assesses_every_rule() -> None:
    """quality_scale.yaml names every rule once, each with a valid status.

    `exempt` and `todo` say why in a comment (hassfest wants one for exempt; here both need it).
    """
    path = INTEGRATION / "quality_scale.yaml"
    raw = path.read_text(encoding="utf-8")
    rules = load_yaml_dict(path)["rules"]
    assert rules.keys() == ALL_QUALITY_SCALE_RULES, (
        f"missing: {sorted(ALL_QUALITY_SCALE_RULES - rules.keys())}, "
        f"unknown: {sorted(rules.keys() - ALL_QUALITY_SCALE_RULES)}"
    )
    for rule in rules:  # a YAML mapping keeps only the last of a repeated key
        assert raw.count(f"\n  {rule}:") == 1, f"{rule} appears more than once"
    for rule, value in rules.items():
        assessment = value if isinstance(value, dict) else {"status": value}
        assert assessment.keys() <= {"status", "comment"}, rule
        status = assessment["status"]
        assert status in {"done", "exempt", "todo"}, f"{rule}: {status}"
        if status != "done":
            assert str(assessment.get("comment") or "").strip(), f"{rule} ({status}): no comment"
