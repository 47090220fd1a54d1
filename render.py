"""The command: list the chapters, print a ledger, render a chapter, its slides, its
shorts or a sweep (`render.py --help`; README, "The command").

Only the parser and one call per subcommand live here; the pipeline is in production/.
Errors are raised as exceptions and turned into one line on stderr and an exit status
in :func:`main`.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import TYPE_CHECKING

from production import paths
from production.errors import (
    DiskFullError,
    JobFailed,
    NarrationError,
    SchedulerLost,
    UsageError,
)
from production.workers import Terminated, WorkerDied, stop_on_sigterm

if TYPE_CHECKING:
    from production.chapters import Chapter
    from production.run import Request

DEFAULT_CHAPTER = "attention"

#: the scene commands: (name, help, description, default output folder)
SCENE_COMMANDS = (
    ("render", "render the chapter (or the named scenes) to a publish bundle",
     "Render scenes to MP4 with narration and captions. With no scene named, also join "
     "them into out/chapter.mp4 with chapters.txt, thumbnail.jpg and manifest.json.", "out/"),
    ("slides", "write every scene as clips for slides, with deck.html and deck.pptx",
     "For every scene (or the named ones): MP4 with and without narration, transparent WebM "
     "(VP9 alpha) and MOV (ProRes 4444), a looping GIF, a poster PNG and captions; plus "
     "deck.html, deck.pptx and index.json.", "out/slides/"),
    ("shorts", "render every scene as a vertical 9:16 (or square) short with captions burned in",
     "For every scene (or the named ones): a vertical clip laid out for phones (1080x1920 at "
     "publish, 480x854 at preview; --frame square: 1080x1080, 480x480, for feeds), at most 3 "
     "minutes a part, with captions burned in word by word, SRT and WebVTT, a full-size JPEG "
     "cover, and shorts.json listing them.",
     "out/shorts/"),
    ("sweep", "render scenes once for every combination of --set values",
     "Render the named scenes (at least one) for every combination of the values given with "
     "--set (SECTION.PARAM=V1,V2,...; one value applies to every combination), each into "
     "OUT/SCENE/PARAM=VALUE[,PARAM=VALUE...]/, and list them in OUT/index.json. A scene that "
     "does not change with a value is rendered once and linked into each folder.",
     "out/sweep/"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="render.py", description="Render a chapter, or print the numbers it shows.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("list", help="print every chapter with its scenes, in order").add_argument(
        "--json", action="store_true", help='as JSON: {"chapters": [{"name", "title", ...}]}')
    commands.add_parser("voices", help="print the voices --voice takes, with their licences")
    numbers = commands.add_parser("numbers", help="print every number the chapter shows (JSON)")
    _add_settings(numbers)
    _add_chapter(numbers)
    new = commands.add_parser(
        "new", help="start a new chapter that renders at once",
        description="Write a new chapter to start from: scenes/NAME/ (chapter.py, one scene "
                    "of two beats, its narration with one mark), core/NAME.py (its numbers) "
                    "and tests/test_chapter_NAME.py. Render it with `render.py render "
                    "--chapter NAME`; docs/authoring.md goes on from there.")
    new.add_argument("name", metavar="NAME",
                     help="the chapter's name: lower case letters, digits and _")
    new.add_argument("--title", help="its title (default: from the name)")
    for name, short, long, out in SCENE_COMMANDS:
        _scene_options(commands.add_parser(name, help=short, description=long), out)
    course = commands.add_parser(
        "course", help="render every chapter, with an offline course page",
        description="Render every chapter in course order (scenes/course.txt) into "
                    "DIR/NAME/ publish bundles, cached scenes reused, then write "
                    "DIR/course.json and DIR/index.html: an offline page with each "
                    "chapter's thumbnail, title, duration and chapter list, and a player "
                    "with captions.")
    course.add_argument("--quality", default="publish",
                        help="as for render: preview, draft, publish (default) or 4k")
    course.add_argument("--out", metavar="DIR", help="the course folder (default: out/course/)")
    course.add_argument("--jobs", type=int, metavar="N", help="scenes rendered at once")
    course.add_argument("--voice", default="piper", metavar="NAME", help="as for render")
    course.add_argument("--no-narration", action="store_true", help="as for render")
    course.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")
    return parser


def _scene_options(parser: argparse.ArgumentParser, out: str) -> None:
    """The options every scene command takes: scenes, chapter, output, content, dry run."""
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    _add_chapter(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default="publish",
                        help="preview (854x480, 15 fps), draft (1280x720, 30), "
                             "publish (1920x1080, 60) or 4k (3840x2160, 60); default publish")
    output.add_argument("--out", metavar="DIR", help=f"the output folder (default: {out})")
    output.add_argument("--jobs", type=int, metavar="N",
                        help="scenes rendered at once (default: the number of cores)")
    output.add_argument("--scheduler", metavar="ADDRESS",
                        help="render the scenes on a Dask cluster: its scheduler's address "
                             "(tcp://HOST:8786), or 'local' for one on this machine; "
                             "default: $EXPLAINER_SCHEDULER, else local worker processes")
    if parser.prog.endswith("render"):
        output.add_argument("--keyframes", metavar="DIR",
                            help="also save the last frame of every beat as PNG into DIR")
    if parser.prog.endswith("shorts"):
        output.add_argument("--frame", choices=("tall", "square"), default="tall",
                            help="tall 9:16 for phones (the default: 1080x1920 at publish) or "
                                 "square 1:1 for feeds (1080x1080); square clips are named "
                                 "SCENE-square.mp4")
        output.add_argument("--no-burn", action="store_true",
                            help="leave the captions out of the picture (SRT/VTT still written)")
    content = parser.add_argument_group("content")
    _add_settings(content)
    content.add_argument("--no-narration", action="store_true",
                         help="render without a voice (silent video, no captions)")
    content.add_argument("--voice", default="piper", metavar="NAME",
                         help="piper (the joe voice, the default), espeak or PATH.onnx (a Piper "
                              "voice, its .onnx.json beside it); see `render.py voices`")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")


def _add_chapter(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chapter", default=DEFAULT_CHAPTER, metavar="NAME",
                        help=f"the chapter, from `render.py list` (default: {DEFAULT_CHAPTER})")


def _add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument("--set", dest="settings", action="append", default=[],
                        metavar="SECTION.PARAM=VALUE",
                        help="change a default, e.g. spotlight.sharpness=8 (repeatable; "
                             "sweep: several values, spotlight.sharpness=1,2,4,8)")


def chapters() -> dict[str, Chapter]:
    """Every chapter: each folder of scenes/ with a chapter.py."""
    from production.chapters import discover

    return discover("scenes", paths.ROOT / "scenes")


def chapter(args: argparse.Namespace) -> Chapter:
    from production.chapters import pick

    return pick(chapters(), args.chapter)


def cmd_list(args: argparse.Namespace) -> int:
    from production.chapters import listing

    print(listing(chapters(), as_json=args.json))
    return 0


def cmd_voices(args: argparse.Namespace) -> int:
    from production.voices import voices_text

    print(voices_text())
    return 0


def cmd_numbers(args: argparse.Namespace) -> int:
    from production.pipeline import parse_settings

    book = chapter(args)
    ledger = book.ledger.compute(parse_settings(book, args.settings))
    print(json.dumps(ledger, indent=1, ensure_ascii=False, allow_nan=False))
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from production.scaffold import new_command

    return new_command(paths.ROOT, args.name, args.title)


def cmd_course(args: argparse.Namespace) -> int:
    from production.outputs.course import course_command

    return course_command(chapters(), quality=args.quality, out=args.out, jobs=args.jobs,
                          narrate=not args.no_narration, voice=args.voice,
                          dry_run=args.dry_run)


def _request(args: argparse.Namespace) -> Request:
    """What a render, slides, shorts or sweep command asks for."""
    from production.run import Request

    return Request(chapter(args), scenes=args.scenes, quality=args.quality,
                   settings=args.settings, out=args.out, jobs=args.jobs,
                   narrate=not args.no_narration, voice=args.voice, scheduler=args.scheduler,
                   keyframes=getattr(args, "keyframes", None), dry_run=args.dry_run)


def cmd_scenes(args: argparse.Namespace) -> int:
    """render, slides, shorts or sweep: its output through the one run sequence."""
    from production import run
    from production.outputs import shorts, slides, sweep, video

    output = {"render": lambda: video.BundleOutput(whole=not args.scenes),
              "slides": slides.SlidesOutput,
              "shorts": lambda: shorts.ShortsOutput(burn=not args.no_burn, frame=args.frame),
              "sweep": sweep.SweepOutput}[args.command]()
    return run.run(output, _request(args))


COMMANDS = {"list": cmd_list, "voices": cmd_voices, "numbers": cmd_numbers, "new": cmd_new,
            "course": cmd_course,
            **{name: cmd_scenes for name, *_ in SCENE_COMMANDS}}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help"):
        argv = ["render", *argv]  # the command may be left out: render is meant
    args = parser.parse_args(argv)
    try:
        with stop_on_sigterm():
            return COMMANDS[args.command](args)
    except (UsageError, DiskFullError, NarrationError) as error:
        print(f"render.py: error: {error}", file=sys.stderr)
        return 2
    except (WorkerDied, JobFailed, SchedulerLost) as error:  # what finished stays cached
        print(f"render.py: error: {error}", file=sys.stderr)
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
