"""The command: list the scenes, print the ledger, render the chapter.

    python render.py list
    python render.py numbers [--set SECTION.PARAM=VALUE ...]
    python render.py render [SCENE ...] [--quality preview|draft|publish|4k] [--out DIR]
                            [--set ...] [--no-narration] [--dry-run]

Errors are raised as :class:`UsageError` (or a model's ``ValueError``) and
turned into one line on stderr and exit status 2 in :func:`main`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent

#: name -> (width px, height px, frames per second)
QUALITIES: dict[str, tuple[int, int, int]] = {
    "preview": (854, 480, 15),
    "draft": (1280, 720, 30),
    "publish": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}


class UsageError(Exception):
    """Bad input from the user: one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="render.py",
        description="Render the attention chapter, or print the numbers it shows.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    commands.add_parser("list", help="print the chapter's scenes, one name a line, in order")

    numbers = commands.add_parser(
        "numbers", help="print every number the chapter shows as one JSON object"
    )
    _add_settings(numbers)

    render = commands.add_parser("render", help="render scenes to video files")
    render.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    output = render.add_argument_group("output")
    output.add_argument("--quality", default="publish",
                        help="preview (854x480, 15 fps), draft (1280x720, 30), "
                             "publish (1920x1080, 60) or 4k (3840x2160, 60); default publish")
    output.add_argument("--out", default=str(ROOT / "out"), metavar="DIR",
                        help="directory for the videos (default: out/)")
    content = render.add_argument_group("content")
    _add_settings(content)
    content.add_argument("--no-narration", action="store_true",
                         help="render without a voice (silent video)")
    output.add_argument("--keyframes", metavar="DIR",
                        help="also save the last frame of every beat as PNG into DIR")
    render.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be rendered")
    return parser


def _add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument("--set", dest="settings", action="append", default=[],
                        metavar="SECTION.PARAM=VALUE",
                        help="change a default, e.g. spotlight.sharpness=8 (repeatable)")


def _settings(items: list[str]) -> dict:
    from core.ledger import SettingError, parse_settings

    try:
        return parse_settings(items)
    except SettingError as error:
        raise UsageError(str(error)) from None


def cmd_numbers(args: argparse.Namespace) -> int:
    from core.ledger import compute

    ledger = compute(_settings(args.settings))
    json.dump(ledger, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from scenes import SCENES_IN_ORDER

    for scene in SCENES_IN_ORDER:
        print(scene.__name__)
    return 0


def _pick_scenes(names: list[str]) -> list[Any]:
    from scenes import SCENES_BY_NAME, SCENES_IN_ORDER

    unknown = [n for n in names if n not in SCENES_BY_NAME]
    if unknown:
        raise UsageError(
            f"unknown scene {unknown[0]!r}; scenes: {', '.join(SCENES_BY_NAME)}"
        )
    return [SCENES_BY_NAME[n] for n in names] if names else list(SCENES_IN_ORDER)


def _writable_dir(path: str, option: str) -> Path:
    """The directory, created if missing; a UsageError if it cannot be written."""
    target = Path(path)
    probe = target
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK):
        raise UsageError(f"{option} {path}: not a writable directory")
    return target


def construct_scene(scene_class: Any, quality: str, settings: dict[str, Any],
                    media_dir: Path, *, video: bool, keyframes: Path | None = None) -> Any:
    """Run one scene under Manim at ``quality``; returns the finished Scene.

    With ``video`` False nothing is encoded: animations are skipped to their
    end states, which is enough to check layout, timing and key frames.
    """
    from manim import tempconfig

    width, height, fps = QUALITIES[quality]
    options = {
        "pixel_width": width,
        "pixel_height": height,
        "frame_rate": fps,
        "media_dir": str(media_dir),
        "disable_caching": True,
        "progress_bar": "none",
        "verbosity": "WARNING",
        "output_file": scene_class.__name__,
    }
    if not video:
        options.update({"format": "png", "write_to_movie": False})
    scene_class.settings = settings
    scene_class.keyframe_dir = keyframes
    try:
        with tempconfig(options):
            scene = scene_class()
            scene.render()
    finally:
        scene_class.keyframe_dir = None
    return scene


def cmd_render(args: argparse.Namespace) -> int:
    if args.quality not in QUALITIES:
        raise UsageError(
            f"--quality {args.quality!r}: must be one of {', '.join(QUALITIES)}"
        )
    settings = _settings(args.settings)
    chosen = _pick_scenes(args.scenes)
    out = _writable_dir(args.out, "--out")
    keyframes = _writable_dir(args.keyframes, "--keyframes") if args.keyframes else None
    width, height, fps = QUALITIES[args.quality]
    if args.dry_run:
        for scene_class in chosen:
            print(f"would render {scene_class.__name__} at {width}x{height}, {fps} fps "
                  f"-> {out / (scene_class.__name__ + '.mp4')}")
        return 0
    from production.narration import NarrationError
    from production.scene_output import produce_scene

    def manim(scene_class: Any, media_dir: Path) -> Any:
        return construct_scene(scene_class, args.quality, settings, media_dir, video=True,
                               keyframes=keyframes)

    from production.chapter import assemble

    if args.no_narration:
        print("render.py: rendering without narration (silent)", file=sys.stderr)
    results = []
    for scene_class in chosen:
        started = time.monotonic()
        try:
            result = produce_scene(scene_class, out / "scenes", manim,
                                   narrate=not args.no_narration, settings=settings)
        except NarrationError as error:
            raise UsageError(str(error)) from None
        for problem in result.layout_problems + result.timing_problems:
            print(f"render.py: warning: {scene_class.__name__}: {problem}", file=sys.stderr)
        loud = (f", {result.loudness.integrated:.1f} LUFS, true peak "
                f"{result.loudness.true_peak:.1f} dBTP" if result.loudness else "")
        print(f"{scene_class.__name__}: {result.seconds:.1f} s{loud} in "
              f"{time.monotonic() - started:.1f} s -> {result.video}")
        results.append(result)
    if not args.scenes:
        chapter = assemble(results, out)
        print(f"chapter: {chapter.seconds:.1f} s, {chapter.loudness.integrated:.1f} LUFS, "
              f"true peak {chapter.loudness.true_peak:.1f} dBTP -> {chapter.video}")
    return 0


COMMANDS = {"list": cmd_list, "numbers": cmd_numbers, "render": cmd_render}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["render", *(argv or [])])
    try:
        return COMMANDS[args.command](args)
    except UsageError as error:
        print(f"render.py: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("render.py: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
