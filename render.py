"""The command: list the chapters, print a ledger, render a chapter, its slides, its
shorts or a sweep, publish it (`render.py --help`; README, "The command").

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

from production import paths, qualities
from production.errors import (
    DiskFullError,
    JobFailed,
    NarrationError,
    SchedulerLost,
    UsageError,
)
from production.publish.site import RemoteFailure
from production.workers import Terminated, WorkerDied, stop_on_sigterm

if TYPE_CHECKING:
    from production.chapters import Chapter
    from production.publish.command import PublishRequest
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
    course.add_argument("--quality", default=qualities.DEFAULT,
                        help="as for render: " + qualities.help_text())
    course.add_argument("--out", metavar="DIR", help="the course folder (default: out/course/)")
    course.add_argument("--jobs", type=int, metavar="N", help="scenes rendered at once")
    course.add_argument("--voice", default="piper", metavar="NAME", help="as for render")
    course.add_argument("--no-narration", action="store_true", help="as for render")
    course.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")
    _publish_options(commands.add_parser(
        "publish", help="upload a bundle, a course or shorts to YouTube (never twice)",
        description="Upload the bundle in BUNDLE (default out/) to YouTube: the chapter "
                    "with its metadata, thumbnail and captions; a course folder's chapters "
                    "in course order, then a playlist of them; or, with --shorts, each short. "
                    "publish.json in each folder records what went up, so a second run sends "
                    "only what is new or changed and resumes an upload a killed run left. "
                    "Log in once first with --login --client-secrets FILE. Fields come from "
                    "the bundle, over them a publish.toml in its folder, over that the "
                    "options below. README, \"Publishing\"."))
    return parser


def _publish_options(parser: argparse.ArgumentParser) -> None:
    """What `render.py publish` takes: what to publish, where, the metadata, the log-in."""
    parser.add_argument("bundle", nargs="?", metavar="BUNDLE",
                        help="a publish bundle (manifest.json, chapter.mp4, ...), a course "
                             "folder (course.json) or, with --shorts, a bundle with shorts/ or "
                             "a shorts folder (default: out/)")
    what = parser.add_argument_group("what and where")
    what.add_argument("--to", choices=("youtube",), default="youtube",
                      help="the video site (default: youtube)")
    what.add_argument("--shorts", action="store_true",
                      help="publish each short of BUNDLE/shorts/ (from `render.py shorts`) as "
                           "its own video, its title ending in #Shorts, with its captions")
    what.add_argument("--dry-run", action="store_true",
                      help="print every request it would make (method, URL, body, file and "
                           "size) and the quota it costs; contacts nothing, needs no token")
    what.add_argument("--api-root", metavar="URL",
                      help="where every request goes, uploads included (default: YouTube's, "
                           "https://www.googleapis.com/; another for an API-compatible "
                           "host or a stand-in)")
    what.add_argument("--chunk-kib", type=int, metavar="N",
                      help="upload the video in chunks of N KiB, a multiple of 256 (default "
                           "8192); a broken upload resumes from the last chunk the site has")
    fields = parser.add_argument_group(
        "metadata (each over publish.toml's, over the bundle's)")
    fields.add_argument("--privacy", choices=("private", "unlisted", "public"),
                        help="who can see the videos and the playlist (default: private)")
    fields.add_argument("--title", help="the video's title (a course's: the playlist's); at "
                                        "most 100 characters, no < or >")
    fields.add_argument("--description",
                        help="the whole description (a course's: the playlist's); default: "
                             "the chapter's summary, its chapter list and the credits")
    fields.add_argument("--tags", metavar="TAG,TAG,...",
                        help="the tags, comma-separated (default: the chapter's); at most 500 "
                             "characters in all")
    fields.add_argument("--category", metavar="ID",
                        help="the site's category id (default: 27, Education)")
    fields.add_argument("--language", metavar="TAG",
                        help="the language of the title, the speech and the captions, as "
                             "BCP-47 (default: en)")
    fields.add_argument("--captions-name", metavar="NAME",
                        help="the caption track's name in the player (default: English)")
    fields.add_argument("--made-for-kids", action="store_true", default=None,
                        help="declare the videos made for children (default: not)")
    account = parser.add_argument_group("account")
    account.add_argument("--login", action="store_true",
                         help="log in once (Google's consent page, in a browser) and write "
                              "the token; nothing is published")
    account.add_argument("--client-secrets", metavar="FILE",
                         help="with --login: the OAuth client JSON of a desktop app, from the "
                              "Google Cloud console")
    account.add_argument("--token", metavar="FILE",
                         help="the token to publish with, or for --login to write (default: "
                              "in ~/.config/attention-explainer/)")


def _scene_options(parser: argparse.ArgumentParser, out: str) -> None:
    """The options every scene command takes: scenes, chapter, output, content, dry run."""
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    _add_chapter(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default=qualities.DEFAULT, help=qualities.help_text())
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


def _publish_request(args: argparse.Namespace) -> PublishRequest:
    """What a publish command asks for."""
    from production.publish.command import PublishRequest
    from production.publish.metadata import FIELDS

    return PublishRequest(args.bundle, shorts=args.shorts, dry_run=args.dry_run,
                          token=args.token, api_root=args.api_root, chunk_kib=args.chunk_kib,
                          login=args.login, client_secrets=args.client_secrets,
                          fields={name: getattr(args, name) for name in FIELDS})


def cmd_publish(args: argparse.Namespace) -> int:
    from production.publish.command import publish_command

    return publish_command(_publish_request(args))


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
            "course": cmd_course, "publish": cmd_publish,
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
    except RemoteFailure as error:  # what went up is recorded; the next run goes on
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
