"""Every relative link in README.md and docs/*.md leads somewhere, and the README stays short.

A link is `[text](path)` or `[text](path#anchor)` (and `[ref]: path` definitions); web
and mail addresses are not followed. The path is taken from the linking file's folder and
must exist; an anchor into a Markdown file must be one of its headings, slugged as GitHub
does: lower case, punctuation other than `-` and `_` dropped, each space a hyphen, and a
repeated heading numbered `-1`, `-2`, ... Code (fenced blocks and `inline` spans) is not
read, so a `# comment` in a shell block is no heading and `a[i](j)` in code is no link.
Pure file reading: the whole module runs in well under a second.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest

from production.paths import ROOT

#: the README's ceiling in bytes: what it is, the quick start, the commands, out/, the
#: tests and an index; everything else lives in docs/
README_LIMIT = 20_000

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)"
                  r"(?:\s+\"[^\"]*\"|\s+'[^']*')?\s*\)")
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def prose_lines(text: str, blank_code: bool = True) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with inline code blanked
    (kept for headings, whose anchors include the code's text)."""
    lines, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
        else:
            if blank_code:
                line = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (its links reduced to their text)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every heading anchor of a Markdown page, repeats numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(page.read_text(encoding="utf-8"), blank_code=False):
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2).replace("`", ""))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links(page: Path) -> list[tuple[int, str]]:
    """The relative links of a page: (line number, target as written)."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        targets = [m.group(1) for m in LINK.finditer(line)]
        definition = DEFINITION.match(line)
        if definition:
            targets.append(definition.group(1))
        for target in targets:
            target = target.strip("<>")
            if target and not EXTERNAL.match(target):
                found.append((number, target))
    return found


def broken_links(page: Path) -> list[str]:
    """One line per link of the page that leads nowhere, naming its line and why."""
    problems = []
    for number, target in links(page):
        path, _, anchor = target.partition("#")
        destination = (page.parent / unquote(path)).resolve() if path else page
        where = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name
        if not destination.exists():
            problems.append(f"{where}:{number}: {target}: no such file")
        elif anchor and destination.suffix == ".md" and destination.is_file():
            if unquote(anchor) not in anchors(destination):
                problems.append(f"{where}:{number}: {target}: no heading #{anchor} in "
                                f"{destination.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    problems = broken_links(page)
    assert not problems, "links that lead nowhere:\n" + "\n".join(problems)


def test_the_readme_is_short() -> None:
    size = (ROOT / "README.md").stat().st_size
    assert size <= README_LIMIT, f"README.md is {size} bytes, more than {README_LIMIT}"


def test_the_docs_are_indexed_in_the_readme() -> None:
    linked = {target.partition("#")[0] for _, target in links(ROOT / "README.md")}
    assert {f"docs/{page.name}" for page in PAGES[1:]} <= linked


def test_a_broken_link_or_anchor_is_caught(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Speed (measured)\n\n## It's `new`, 2.0\n",
                                       encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Twice\n\n## Twice\n\n"
        "[fine](other.md#speed-measured) [fine](other.md#its-new-20) [fine](#twice-1)\n"
        "[fine](https://example.com/x.md) [fine](mailto:a@b.c) `[code](nowhere.md)`\n"
        "```sh\n# not a heading\n[code](nowhere.md)\n```\n"
        "[gone](missing.md) [bad anchor](other.md#speed) [bad here](#not-a-heading)\n",
        encoding="utf-8")
    problems = broken_links(page)
    assert [p.split(": ")[1] for p in problems] == [
        "missing.md", "other.md#speed", "#not-a-heading"], problems
