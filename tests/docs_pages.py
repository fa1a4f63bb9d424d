"""The documentation as the doc tests read it: pages, their code blocks, links and headings.

A JSON example of an API is marked by an HTML comment right before its block (GitHub does not
show it), naming the surface, the request and whether the block is the request's body or the
answer:

    <!-- request: control POST /command -->
    <!-- answer: hosted GET /thermostat/{deviceId}/status -->
    <!-- answer shape: device GET /svc/weather/v1?query=07719,US -->

`answer shape` compares only keys and types (the values depend on the home); a plain `answer`
compares values too, except those that vary between runs (ids, revisions, times).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
import json
from pathlib import Path
import re
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = (README, *sorted((ROOT / "docs").glob("*.md")))

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(
    r"^<!-- (?P<role>request|answer)(?P<shape> shape)?: (?P<surface>\w+) (?P<method>[A-Z]+) "
    r"(?P<path>\S+) -->$"
)
# [text](target) and ![alt](target), not inside inline code.
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
INLINE_CODE = re.compile(r"`[^`]*`")


@dataclass(frozen=True)
class Block:
    """A fenced code block of a page."""

    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    marker: str | None  # the HTML comment line right before it, if any

    @property
    def json(self) -> Any:
        """Return the block's JSON value."""
        return json.loads(self.text)

    @property
    def where(self) -> str:
        """Return page:line, for failure messages."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Example:
    """A marked JSON example of an API: a request body or an answer."""

    block: Block
    role: str  # "request" or "answer"
    shape_only: bool
    surface: str  # "control", "hosted" or "device"
    method: str
    path: str


def code_blocks(page: Path) -> list[Block]:
    """Return the page's fenced code blocks, with the comment line before each."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        before = lines[index - 1].strip() if index else ""
        blocks.append(
            Block(
                page,
                index + 1,
                opening.group(1),
                "\n".join(lines[index + 1 : end]),
                before if before.startswith("<!--") else None,
            )
        )
        index = end + 1
    return blocks


def all_blocks(language: str) -> list[Block]:
    """Return every block of the given language on every page."""
    return [block for page in PAGES for block in code_blocks(page) if block.language == language]


def api_examples() -> list[Example]:
    """Return the marked JSON examples of every page."""
    examples = []
    for block in all_blocks("json"):
        match = MARKER.match(block.marker or "")
        if match is not None:
            examples.append(
                Example(
                    block,
                    match["role"],
                    match["shape"] is not None,
                    match["surface"],
                    match["method"],
                    match["path"],
                )
            )
    return examples


def prose(page: Path, *, inline_code: bool = False) -> str:
    """Return the page without its fenced code blocks (and its inline code, unless asked)."""
    kept: list[str] = []
    in_block = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line) or (in_block and line.strip() == "```"):
            in_block = not in_block
            continue
        if not in_block:
            kept.append(line if inline_code else INLINE_CODE.sub("", line))
    return "\n".join(kept)


def links(page: Path) -> list[str]:
    """Return the targets of the page's Markdown links and images."""
    return LINK.findall(prose(page))


def github_slug(heading: str) -> str:
    """Return the anchor GitHub gives a heading (before numbering repeated ones)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Return every anchor of the page's headings, repeated ones numbered as GitHub does."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in prose(page, inline_code=True).splitlines():
        heading = re.match(r"^#{1,6} (.+?)\s*#*\s*$", line)
        if heading is None:
            continue
        slug = github_slug(heading.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def examples_of(surface: str) -> dict[tuple[str, str], dict[str, Example]]:
    """Return one surface's examples by (method, path), each with its request and answer."""
    found: dict[tuple[str, str], dict[str, Example]] = {}
    for example in api_examples():
        if example.surface == surface:
            roles = found.setdefault((example.method, example.path), {})
            assert example.role not in roles, f"{example.block.where}: a second {example.role}"
            roles[example.role] = example
    return found


def differences(
    documented: Any, actual: Any, varying: Collection[str], shape_only: bool, at: str = ""
) -> list[str]:
    """Return where the server's answer differs from the documented one.

    Objects must have the same keys; a documented list must have no more items than the
    answer, each like the answer's item at its place. Values must be equal, except under a key
    in `varying` (or everywhere when `shape_only`), where only their JSON types must agree.
    """
    if isinstance(documented, dict):
        if not isinstance(actual, dict):
            return [f"{at or '/'}: documented an object, answered {actual!r}"]
        found = [
            f"{at}/{key}: documented, not answered" for key in documented.keys() - actual.keys()
        ]
        found += [
            f"{at}/{key}: answered ({actual[key]!r}), not documented"
            for key in actual.keys() - documented.keys()
        ]
        for key in documented.keys() & actual.keys():
            found += differences(
                documented[key], actual[key], varying, shape_only or key in varying, f"{at}/{key}"
            )
        return found
    if isinstance(documented, list):
        if not isinstance(actual, list) or len(actual) < len(documented):
            return [f"{at}: documented {len(documented)} items, answered {actual!r}"]
        return [
            problem
            for index, item in enumerate(documented)
            for problem in differences(item, actual[index], varying, shape_only, f"{at}/{index}")
        ]
    if shape_only:
        if json_type(documented) != json_type(actual):
            return [f"{at}: documented a {json_type(documented)}, answered {actual!r}"]
        return []
    if documented != actual or json_type(documented) != json_type(actual):
        return [f"{at}: documented {documented!r}, answered {actual!r}"]
    return []


def json_type(value: Any) -> str:
    """Return the JSON type of a value (integers and fractions are both numbers)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__
