"""The shape of the code: core never imports Manim, no import cycle among the project's
modules, and no module of production/ is a catch-all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from production.imports import _imported as imported
from production.imports import module_file
from production.paths import ROOT

LAYERS = ("core", "scenes", "production")
MAX_LINES = 450


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in (root / layer).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Which project modules each module imports (anywhere in it, lazily too)."""
    return {name: {m for m in imported(path, name, path.stat().st_mtime_ns)
                   if m in modules and m != name}
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_among_the_project_modules():
    modules = project_modules()
    assert len(modules) > 60 and module_file("production.run", (ROOT,)) is not None
    assert cycles(import_graph(modules)) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_production_is_over_450_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in sorted((ROOT / "production").rglob("*.py"))}
    assert {p: n for p, n in sizes.items() if n > MAX_LINES} == {}


def test_core_never_imports_manim():
    """In a fresh process: pytest itself may already have Manim loaded."""
    check = subprocess.run(
        [sys.executable, "-c", "import sys, core.ledger, core.ledgers, core.attention, "
         "core.seq2seq, core.potion; print('manim' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert check.stdout.strip() == "False"


#: the most code lines in scenes/ that ask which frame they are drawn for
MAX_FRAME_BRANCHES = 30
_FRAME_NAMES = {"tall", "across", "flow"}
_FRAME_STRINGS = {"'tall'", '"tall"', "'square'", '"square"', "'wide'", '"wide"'}


def frame_branches(path: Path) -> list[int]:
    """The code lines (comments and docstrings aside) of ``path`` that ask which frame
    the scene is drawn for: ``tall``, ``across``, ``flow``, a ``TALL_...`` constant, or a
    frame's name in quotes."""
    import io
    import tokenize

    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if (token.type == tokenize.NAME and (token.string in _FRAME_NAMES
                                             or token.string.startswith("TALL_"))) \
                or (token.type == tokenize.STRING and token.string in _FRAME_STRINGS):
            lines.add(token.start[0])
    return sorted(lines)


def test_scenes_are_written_once_for_every_frame():
    """A scene builds its parts, lays them out for the frame it is given and animates
    them in one construct: few lines anywhere in scenes/ branch on the frame."""
    counts = {str(p.relative_to(ROOT)): len(frame_branches(p))
              for p in sorted((ROOT / "scenes").rglob("*.py")) if p.name != "frame.py"}
    assert sum(counts.values()) <= MAX_FRAME_BRANCHES, {p: n for p, n in counts.items() if n}


def test_a_branch_on_the_frame_is_found_and_a_comment_is_not(tmp_path):
    source = tmp_path / "s.py"
    source.write_text('"""drawn tall"""\n# tall\nif self.tall:\n    x = TALL_GAP\n'
                      'y = "tall frame"\nif frame.name == "square":\n    pass\n')
    assert frame_branches(source) == [3, 4, 6]


def test_render_py_is_only_the_command():
    """render.py keeps the parser and one call per subcommand; each subcommand's options
    live beside the code that runs it, in production/."""
    lines = len((ROOT / "render.py").read_text(encoding="utf-8").splitlines())
    assert lines <= 200, f"render.py is {lines} lines"
