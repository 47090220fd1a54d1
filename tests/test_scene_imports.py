"""No scene module imports another scene's module: what two scenes share is a component
(scenes/components/), so a scene's cache key (production/imports.py: the code it
imports, transitively) holds its own file and no other scene's, and editing one scene
redraws that scene alone. The imports are read from the source; nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

from production.imports import closure
from production.paths import ROOT

SCENES = ROOT / "scenes"
#: the files of a chapter folder that may import its scenes: the chapter's list of them,
#: and the package's own file
LISTS = ("chapter.py", "__init__.py")


def chapter_folders(scenes: Path = SCENES) -> list[Path]:
    """Every chapter folder under ``scenes``: each subfolder with a chapter.py, as the
    pipeline discovers chapters."""
    return sorted(p for p in scenes.iterdir() if (p / "chapter.py").is_file())


def module_name(path: Path, scenes: Path = SCENES) -> str:
    """The dotted name of the module in ``path`` (a file under ``scenes``)."""
    parts = path.relative_to(scenes.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(node: ast.Import | ast.ImportFrom, name: str, path: Path) -> list[str]:
    """The modules an import statement of module ``name`` (in ``path``) may bring in,
    relative imports made absolute: what it imports from, and each name it imports
    (``from scenes import attention`` brings in a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[:len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def chapter_imports(path: Path, chapters: list[str], scenes: Path = SCENES) -> list[str]:
    """Each import in ``path`` (anywhere in it, lazily too) that reaches a module of a
    chapter folder (``chapters``: dotted names such as ``scenes.attention``), as
    ``line N: <the import>``."""
    name = module_name(path, scenes)
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                module == chapter or module.startswith(f"{chapter}.")
                for module in imported(node, name, path) for chapter in chapters):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def offenders(files: list[Path], scenes: Path = SCENES) -> dict[str, list[str]]:
    """The files among ``files`` that import a module of a chapter folder, with those
    imports."""
    chapters = [module_name(folder, scenes) for folder in chapter_folders(scenes)]
    found = {str(p.relative_to(scenes.parent)): chapter_imports(p, chapters, scenes)
             for p in files}
    return {p: imports for p, imports in found.items() if imports}


def listed(found: dict[str, list[str]]) -> str:
    """Each offending import on a line of its own, after its file."""
    return "\n".join(f"{path}, {line}" for path, lines in found.items() for line in lines)


def scene_modules(scenes: Path = SCENES) -> list[Path]:
    """Every module of every chapter folder but the files that list its scenes."""
    return sorted(p for folder in chapter_folders(scenes) for p in folder.rglob("*.py")
                  if p.relative_to(folder).as_posix() not in LISTS)


def test_no_scene_module_imports_a_module_of_a_chapter():
    """Its own chapter's or another's: what two scenes share is a component."""
    modules = scene_modules()
    assert {p.parent.name for p in modules} >= {"attention", "decoder"}
    assert len(modules) > 15
    found = offenders(modules)
    assert not found, f"move what they share to scenes/components/:\n{listed(found)}"


def test_nothing_scenes_share_imports_a_module_of_a_chapter():
    """Components and the scenes' helpers (base, lines, numbers...) import no chapter's
    module either: through them a scene would still run another scene's code."""
    inside = {p for folder in chapter_folders() for p in folder.rglob("*.py")}
    shared = sorted(p for p in SCENES.rglob("*.py") if p not in inside)
    assert any(p.parent.name == "components" for p in shared)
    found = offenders(shared)
    assert not found, listed(found)


def test_what_a_scene_module_runs_holds_no_other_module_of_a_chapter():
    """What a scene's cache key hashes (production.imports.closure): its own file, its
    chapter's package, and no other file of any chapter folder."""
    roots = (ROOT,)
    chapters = [module_name(folder) for folder in chapter_folders()]
    others = {}
    for path in scene_modules():
        name = module_name(path)
        ran = closure([name], roots)
        reached = sorted(m for m in ran if m != name and m not in chapters
                         and any(m.startswith(f"{c}.") for c in chapters))
        if reached:
            others[str(path.relative_to(ROOT))] = reached
    assert not others, "\n".join(f"{p} runs {', '.join(m)}" for p, m in others.items())


def test_the_reader_finds_every_way_to_import_a_chapter_module(tmp_path):
    """The checks above can fail: absolute and relative imports of a chapter's module,
    at the top or inside a function, are found; a component's or a helper's are not."""
    scenes = tmp_path / "scenes"
    for folder in ("attention", "decoder", "components"):
        (scenes / folder).mkdir(parents=True)
        (scenes / folder / "__init__.py").write_text("")
    (scenes / "__init__.py").write_text("")
    (scenes / "attention" / "chapter.py").write_text("from scenes.attention.one import A\n")
    (scenes / "decoder" / "chapter.py").write_text("")
    bad = scenes / "attention" / "one.py"
    bad.write_text(
        "from scenes import style\n"
        "from scenes.components.bottle import Bottle\n"
        "from ..components.shelf import Shelf\n"
        "from scenes.attention.two import closing_row\n"
        "import scenes.decoder.step\n"
        "from scenes import attention\n"
        "from .two import row_marks\n"
        "from . import two\n"
        "from ..decoder import step\n"
        "def later():\n"
        "    from scenes.decoder.step import AverageAndWrite\n")
    (scenes / "components" / "helper.py").write_text("from scenes.attention import one\n")
    assert offenders([bad], scenes) == {"scenes/attention/one.py": [
        "line 4: from scenes.attention.two import closing_row",
        "line 5: import scenes.decoder.step",
        "line 6: from scenes import attention",
        "line 7: from .two import row_marks",
        "line 8: from . import two",
        "line 9: from ..decoder import step",
        "line 11: from scenes.decoder.step import AverageAndWrite",
    ]}
    assert scene_modules(scenes) == [bad]
    assert list(offenders([scenes / "components" / "helper.py"], scenes)) == [
        "scenes/components/helper.py"]
