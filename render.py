"""The command: list the chapters, print a ledger, render a chapter, its slides, its
shorts or a sweep, publish it (`render.py --help`; README, "The command").

Only the parser and one call per subcommand live here: each subcommand's options live
beside the code that runs it (production/options.py for the scene commands, scaffold/,
outputs/course.py, publish/options.py), and the pipeline is in production/.
Errors are raised as exceptions and turned into one line on stderr and an exit status
in :func:`main`.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import TYPE_CHECKING

from production import options, paths, scaffold, watch
from production.demo import options as demo
from production.errors import (
    DiskFullError,
    JobFailed,
    NarrationError,
    SchedulerLost,
    UsageError,
    one_line,
)
from production.outputs import course
from production.publish import options as publishing
from production.publish.site import RemoteFailure
from production.translation import command as translation
from production.workers import Terminated, WorkerDied, stop_on_sigterm

if TYPE_CHECKING:
    from production.chapters import Chapter


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand; each command's home adds the command's options."""
    parser = options.Parser(
        prog="render.py", description="Render a chapter, or print the numbers it shows.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("list", help="print every chapter with its scenes, in order").add_argument(
        "--json", action="store_true", help='as JSON: {"chapters": [{"name", "title", ...}]}')
    commands.add_parser("voices", help="print the voices --voice takes, with their licences")
    numbers = commands.add_parser("numbers", help="print every number the chapter shows (JSON)")
    options.add_settings(numbers)
    options.add_chapter(numbers)
    scaffold.add_arguments(
        commands.add_parser("new", help=scaffold.HELP, description=scaffold.DESCRIPTION))
    for name, (short, long, _) in options.SCENE_COMMANDS.items():
        options.add_arguments(commands.add_parser(name, help=short, description=long), name)
    demo.add_arguments(
        commands.add_parser("demo", help=demo.HELP, description=demo.DESCRIPTION))
    course.add_arguments(
        commands.add_parser("course", help=course.HELP, description=course.DESCRIPTION))
    publishing.add_arguments(
        commands.add_parser("publish", help=publishing.HELP, description=publishing.DESCRIPTION))
    watch.add_arguments(
        commands.add_parser("watch", help=watch.HELP, description=watch.DESCRIPTION))
    translation.add_arguments(
        commands.add_parser("translate", help=translation.HELP,
                            description=translation.DESCRIPTION))
    return parser


def chapters() -> dict[str, Chapter]:
    """Every chapter: each folder of scenes/ with a chapter.py."""
    from production.chapters import discover

    return discover("scenes", paths.ROOT / "scenes")


def chapter(args: argparse.Namespace) -> Chapter:
    """The chapter --chapter names (a UsageError naming the chapters if there is none)."""
    from production.chapters import pick

    return options.in_language(args, pick(chapters(), args.chapter))


def cmd_list(args: argparse.Namespace) -> int:
    """`list`: every chapter with its scenes, in order (as JSON with --json)."""
    from production.chapters import listing

    print(listing(chapters(), as_json=args.json))
    return 0


def cmd_voices(args: argparse.Namespace) -> int:
    """`voices`: the voices --voice takes, with their licences."""
    from production.voices import voices_text

    print(voices_text())
    return 0


def cmd_numbers(args: argparse.Namespace) -> int:
    """`numbers`: the chapter's ledger, every number it shows, as JSON."""
    from production.pipeline import parse_settings

    book = chapter(args)
    ledger = book.ledger.compute(parse_settings(book, args.settings))
    print(json.dumps(ledger, indent=1, ensure_ascii=False, allow_nan=False))
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    """`new`: write a chapter to start from."""
    return scaffold.handle(args, paths.ROOT)


def cmd_course(args: argparse.Namespace) -> int:
    """`course`: every chapter's bundle, and the course page over them."""
    return course.handle(args, chapters())


def cmd_demo(args: argparse.Namespace) -> int:
    """`demo`: the chapter's demo, an offline page to work its idea by hand."""
    return demo.handle(args, chapters())


def cmd_publish(args: argparse.Namespace) -> int:
    """`publish`: a bundle, a course or shorts to the video site."""
    return publishing.handle(args)


def cmd_watch(args: argparse.Namespace) -> int:
    """`watch`: a page that shows a scene as it now renders, drawn again on every save."""
    return watch.handle(args, chapter(args))


def cmd_translate(args: argparse.Namespace) -> int:
    """`translate`: a chapter's PO catalogue for a language, written or brought up to date."""
    from production.chapters import pick

    return translation.handle(args, pick(chapters(), args.chapter))


def cmd_scenes(args: argparse.Namespace) -> int:
    """render, slides, shorts or sweep: its output through the one run sequence."""
    return options.handle(args, chapter(args))


COMMANDS = {"list": cmd_list, "voices": cmd_voices, "numbers": cmd_numbers, "new": cmd_new,
            "course": cmd_course, "demo": cmd_demo, "publish": cmd_publish, "watch": cmd_watch,
            "translate": cmd_translate,
            **{name: cmd_scenes for name in options.SCENE_COMMANDS}}


def secret_free(error: BaseException, argv: list[str]) -> str:
    """An error's message with the user name and password of any URL in it taken out, on
    one line, quoting at most 80 characters of any argument in ``argv``."""
    from production.publish.command import without_credentials

    return one_line(without_credentials(str(error)), map(without_credentials, argv))


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (default: sys.argv[1:]; with no command, render);
    the exit status: 2 for what the user can fix, 1 for a failed job or a site's refusal,
    130 on Ctrl-C and 143 on SIGTERM."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help"):
        argv = ["render", *argv]  # the command may be left out: render is meant
    args = parser.parse_args(argv)
    try:
        with stop_on_sigterm():
            return COMMANDS[args.command](args)
    except (UsageError, DiskFullError, NarrationError) as error:
        print(f"render.py: error: {secret_free(error, argv)}", file=sys.stderr)
        return 2
    except (WorkerDied, JobFailed, SchedulerLost) as error:  # what finished stays cached
        print(f"render.py: error: {secret_free(error, argv)}", file=sys.stderr)
        return 1
    except RemoteFailure as error:  # what went up is recorded; the next run goes on
        print(f"render.py: error: {secret_free(error, argv)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the workers are already gone
        terminated = isinstance(stop, Terminated)
        print(f"render.py: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        gc.freeze()  # leave Manim's objects to the exit, not to a last sweep (half a second)
        return 143 if terminated else 130
    finally:
        from production import lock

        lock.release_all()


if __name__ == "__main__":
    sys.exit(main())
