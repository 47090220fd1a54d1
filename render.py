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
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


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


def cmd_render(args: argparse.Namespace) -> int:
    from pipeline.rendering import render_scenes

    settings = _settings(args.settings)
    return render_scenes(args, settings)


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
