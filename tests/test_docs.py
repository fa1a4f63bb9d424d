"""The documentation holds: its links resolve, its examples parse and name what exists.

The API examples are sent to the server by tests/control/test_doc_examples.py,
tests/hosted/test_doc_examples.py and tests/test_weather.py; here every JSON block must be one
of those marked examples, so none goes unchecked.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
import importlib.util
import os
from pathlib import Path
import re
import subprocess
from typing import Any

import homeassistant.components
from homeassistant.core import HomeAssistant
from homeassistant.util.yaml import load_yaml_dict, parse_yaml
import pytest

from thermostat_sim.thermostat import ROOM_IDS

from .conftest import PairThermostat
from .docs_pages import (
    MARKER,
    PAGES,
    README,
    ROOT,
    all_blocks,
    anchors,
    api_examples,
    code_blocks,
    links,
    prose,
)

INTEGRATION = ROOT / "custom_components" / "thermostat_cloud"
SURFACES = {"control", "hosted", "device"}
# Entities of the reader's own that the examples use beside the thermostat's.
READERS_OWN_ENTITIES = {"zone.home", "sensor.bathroom_humidity"}
# Paths the pages name that only exist once made (by setup, a run, a release).
MADE_PATHS = ("tests/browser/screenshots/",)
REPO_PATH = re.compile(
    r"`((?:custom_components|bench|frontend|scripts|tests|docs|thermostat_sim|server)"
    r"/[\w./-]*[\w/])`"
)
# Right before a path of another repository: its name (`owner/name` or `Some-Name`).
OTHER_REPOSITORY = re.compile(r"(?:[\w.-]+/[\w.-]+|[\w.]*-[\w.-]+),?\s+$")


def page_id(page: Path) -> str:
    """Return a page's path from the repository root, as a test id."""
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", [*PAGES, ROOT / "CHANGELOG.md"], ids=page_id)
def test_every_link_resolves(page: Path) -> None:
    """Every relative link names a file of the repository, and its #anchor a heading there."""
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or not linked.is_relative_to(ROOT):
            broken.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with that anchor in {page_id(linked)}")
    assert not broken, f"{page_id(page)}: " + "; ".join(broken)


# The project's own address in the code (the card picker's links, the repairs' "Learn more"),
# with an optional page (`/blob/main/docs/x.md`) and #anchor.
OWN_ADDRESS = re.compile(
    r"https://github\.com/thermostat-cloud/thermostat-cloud"
    r"(?:/(?:blob|tree)/main/(?P<path>[\w./-]+))?(?:#(?P<anchor>[\w-]+))?"
)
CODE_WITH_LINKS = (ROOT / "frontend" / "src", INTEGRATION)


def broken_own_links(text: str) -> list[str]:
    """Return the project's addresses in the text whose page or heading does not exist."""
    broken = []
    for address in OWN_ADDRESS.finditer(text):
        page = ROOT / (address["path"] or "README.md")
        if not page.is_file():
            broken.append(f"{address[0]}: no such file")
        elif address["anchor"] and address["anchor"] not in anchors(page):
            broken.append(f"{address[0]}: no heading with that anchor in {page_id(page)}")
    return broken


def test_every_link_in_the_code_resolves() -> None:
    """The documentation links the card and the integration show lead to a real heading."""
    sources = [
        path
        for folder in CODE_WITH_LINKS
        for path in sorted(folder.rglob("*"))
        if path.suffix in {".ts", ".py", ".json"} and "translations" not in path.parts
    ]
    assert any(path.suffix == ".ts" for path in sources)
    broken = [
        f"{page_id(path)}: {problem}"
        for path in sources
        for problem in broken_own_links(path.read_text(encoding="utf-8"))
    ]
    assert not broken, "\n".join(broken)


def test_a_link_to_a_missing_heading_is_found() -> None:
    """The check above catches the card picker's old link to a heading that never existed."""
    old = "https://github.com/thermostat-cloud/thermostat-cloud#the-thermostat-in-home-assistant"
    assert broken_own_links(old)
    assert not broken_own_links(
        old.replace("the-thermostat-in-home-assistant", "edit-the-schedule")
    )


def test_the_readme_shows_every_picture_the_browser_tests_take() -> None:
    """Each picture in docs/images is on the README (the links test checks they exist)."""
    pictures = {path.name for path in (ROOT / "docs" / "images").glob("*.png")}
    shown = {Path(target).name for target in links(README) if target.startswith("docs/images/")}
    assert pictures
    assert pictures <= shown, f"not on the README: {sorted(pictures - shown)}"


def test_every_page_is_reachable_from_the_readme() -> None:
    """Each page of docs/ is linked from the README, so a reader can find it."""
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in links(README)}
    unlinked = [page_id(page) for page in PAGES[1:] if page.resolve() not in linked]
    assert not unlinked


def test_every_json_block_is_a_marked_example_that_parses() -> None:
    """A JSON block is an API's request or answer, complete, marked with what it shows.

    Unmarked or partial JSON would not be compared with the server, so it is refused.
    """
    problems = []
    for block in all_blocks("json"):
        marker = MARKER.match(block.marker or "")
        if marker is None or marker["surface"] not in SURFACES:
            problems.append(f"{block.where}: no <!-- request|answer: SURFACE METHOD PATH -->")
        try:
            block.json  # noqa: B018
        except ValueError as err:
            problems.append(f"{block.where}: not JSON ({err})")
    assert not problems, "\n".join(problems)


def test_every_example_request_has_its_answer() -> None:
    """Each surface has examples, and each documented request has its documented answer."""
    examples = api_examples()
    assert {example.surface for example in examples} == SURFACES
    answered = {(e.surface, e.method, e.path) for e in examples if e.role == "answer"}
    unanswered = [
        example.block.where
        for example in examples
        if example.role == "request"
        and (example.surface, example.method, example.path) not in answered
    ]
    assert not unanswered


# -- commands ---------------------------------------------------------------------------------


def test_the_readmes_commands_exist_and_parse() -> None:
    """The README's `scripts/develop` and `scripts/test` are executable Bash scripts.

    Bash parses each, and what each sources exists. (Running them starts Home Assistant or the
    whole suite; CI runs `scripts/test` itself.)
    """
    commands = {
        line.split()[0]
        for block in code_blocks(README)
        if block.language == "sh"
        for line in block.text.splitlines()
        if line.strip()
    }
    assert commands == {"scripts/develop", "scripts/test"}
    for command in sorted(commands):
        script = ROOT / command
        assert os.access(script, os.X_OK), f"{command} is not executable"
        assert script.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
        subprocess.run(["bash", "-n", str(script)], check=True)
        for sourced in re.findall(
            r'^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/(\S+)"',
            script.read_text(encoding="utf-8"),
            re.MULTILINE,
        ):
            assert (script.parent / sourced).is_file(), f"{command} sources {sourced}"


def named_in_pages(pattern: re.Pattern[str]) -> Iterator[tuple[str, str]]:
    """Yield (page, first group) for every match in every page, code blocks included.

    Not a match right after another repository's name: sources name their own files.
    """
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in pattern.finditer(text):
            if not OTHER_REPOSITORY.search(text[max(0, match.start() - 80) : match.start()]):
                yield page_id(page), match.group(1)


def test_every_script_and_module_named_exists() -> None:
    """Each `scripts/...` and `python -m ...` a page names exists.

    A script must be executable unless Python runs it; a module must be importable.
    """
    missing = []
    for page, name in named_in_pages(re.compile(r"(?<![\w/.-])(scripts/[\w.-]*\w)")):
        script = ROOT / name
        if not script.is_file() or not (name.endswith(".py") or os.access(script, os.X_OK)):
            missing.append(f"{page}: {name}")
    for page, module in named_in_pages(re.compile(r"python3? -m ([\w.]+)")):
        if importlib.util.find_spec(module) is None:
            missing.append(f"{page}: python -m {module}")
    assert not missing, "\n".join(missing)


def test_every_repository_path_and_test_named_exists() -> None:
    """Each path of the repository a page names exists, and each test it names is defined.

    `server/...` is the service package's; the firmware facts name the tests that guard
    them, which must not be renamed away.
    """
    missing = []
    for page, name in named_in_pages(REPO_PATH):
        path = INTEGRATION / name if name.startswith("server/") else ROOT / name
        if not name.startswith(MADE_PATHS) and not path.exists():
            missing.append(f"{page}: {name}")
    defined = {
        node.name
        for test_file in (ROOT / "tests").rglob("test_*.py")
        for node in ast.walk(ast.parse(test_file.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    missing += [
        f"{page_id(page)}: {name}"
        for page in PAGES
        for name in re.findall(r"`(test_\w+)`", prose(page, inline_code=True))
        if name not in defined
    ]
    assert not missing, "\n".join(missing)


# -- YAML examples ----------------------------------------------------------------------------


def yaml_examples() -> list[tuple[str, Any]]:
    """Return every YAML block of every page, parsed, with where it is."""
    return [(block.where, parse_yaml(block.text)) for block in all_blocks("yaml")]


def walk(value: Any) -> Iterator[dict[str, Any]]:
    """Yield every mapping in a parsed YAML document."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def action_fields(action: str) -> set[str] | None:
    """Return the fields of an action from its services.yaml; None if there is no such action."""
    domain, _, name = action.partition(".")
    if domain == "thermostat_cloud":
        services = INTEGRATION / "services.yaml"
    else:
        services = Path(homeassistant.components.__path__[0]) / domain / "services.yaml"
    if not services.is_file():
        return None
    described = load_yaml_dict(str(services))
    if name not in described:
        return None
    fields: set[str] = set()
    for field, spec in ((described[name] or {}).get("fields") or {}).items():
        # A section groups fields of its own.
        fields |= set(spec["fields"]) if "fields" in (spec or {}) else {field}
    return fields


def test_yaml_examples_parse_and_name_real_actions_and_fields() -> None:
    """Each `action:` exists (the integration's or Home Assistant's) with the fields used."""
    examples = yaml_examples()
    assert examples
    problems = []
    actions = set()
    for where, document in examples:
        for mapping in walk(document):
            if not isinstance(mapping.get("action"), str):
                continue
            action = mapping["action"]
            actions.add(action)
            fields = action_fields(action)
            if fields is None:
                problems.append(f"{where}: no action {action}")
            elif unknown := set(mapping.get("data") or {}) - fields:
                problems.append(f"{where}: {action} has no field {sorted(unknown)}")
    assert not problems, "\n".join(problems)
    assert any(action.startswith("thermostat_cloud.") for action in actions)


def test_yaml_examples_name_a_real_card_and_logger() -> None:
    """A card's `custom:` type and a logger named in an example exist.

    The card type is one the integration's card module defines; the logger a package.
    """
    module = (INTEGRATION / "frontend" / "thermostat-cloud-schedule-card.js").read_text(
        encoding="utf-8"
    )
    cards = loggers = 0
    for where, document in yaml_examples():
        for mapping in walk(document):
            card = mapping.get("type")
            if isinstance(card, str) and card.startswith("custom:"):
                cards += 1
                assert f'"{card.removeprefix("custom:")}"' in module, f"{where}: {card}"
        if isinstance(document, dict) and "logger" in document:
            for name in document["logger"]["logs"]:
                loggers += 1
                assert importlib.util.find_spec(name) is not None, f"{where}: {name}"
    assert cards
    assert loggers


async def test_yaml_examples_name_the_entities_a_paired_thermostat_has(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """The examples' entities are those of a thermostat paired in the Living Room.

    Firmware reports no name, so the room names it: `climate.living_room`. Others are the
    reader's own (a zone, a humidity sensor).
    """
    await pair_thermostat(device={"where_id": ROOM_IDS["Living Room"]})
    named: set[str] = set()
    for _, document in yaml_examples():
        for mapping in walk(document):
            for key in ("entity_id", "entity"):
                value = mapping.get(key)
                if isinstance(value, dict):  # a `target:` with entity ids
                    continue
                named |= {value} if isinstance(value, str) else set(value or ())
    assert "climate.living_room" in named
    missing = [
        entity_id
        for entity_id in sorted(named - READERS_OWN_ENTITIES)
        if hass.states.get(entity_id) is None
    ]
    assert not missing
