"""The scene commands' options (`render.py render`, `slides`, `shorts`, `sweep`; README,
"The command"), and --chapter and --set, which `numbers` takes too.

Beside them, what turns the parsed options into the one run sequence (production/run.py)
with the output the command names. Only the standard library, core/digits.py and the
quality table are imported here: render.py builds its parser from this module for every
command, and a command that draws nothing must not wait for the pipeline to load.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from core import digits
from production import qualities
from production.errors import UsageError, one_line, quoted

if TYPE_CHECKING:
    from production.chapters import Chapter
    from production.run import Output, Request

DEFAULT_CHAPTER = "attention"

#: each scene command: (help, description, default output folder)
SCENE_COMMANDS = {
    "render": (
        "render the chapter (or the named scenes) to a publish bundle",
        "Render scenes to MP4 with narration and captions. With no scene named, also join "
        "them into out/chapter.mp4 with chapters.txt, thumbnail.jpg and manifest.json.",
        "out/"),
    "slides": (
        "write every scene as clips for slides, with deck.html and deck.pptx",
        "For every scene (or the named ones): MP4 with and without narration, transparent "
        "WebM (VP9 alpha) and MOV (ProRes 4444), a looping GIF, a poster PNG and captions; "
        "plus deck.html, deck.pptx and index.json.",
        "out/slides/"),
    "shorts": (
        "render every scene as a vertical 9:16 (or square) short with captions burned in",
        "For every scene (or the named ones): a vertical clip laid out for phones (1080x1920 "
        "at publish, 480x854 at preview; --frame square: 1080x1080, 480x480, for feeds), at "
        "most 3 minutes a part, with captions burned in word by word, SRT and WebVTT, a "
        "full-size JPEG cover, and shorts.json listing them.",
        "out/shorts/"),
    "sweep": (
        "render scenes once for every combination of --set values",
        "Render the named scenes (at least one) for every combination of the values given "
        "with --set (SECTION.PARAM=V1,V2,...; one value applies to every combination), each "
        "into OUT/SCENE/PARAM=VALUE[,PARAM=VALUE...]/, and list them in OUT/index.json. A "
        "scene that does not change with a value is rendered once and linked into each "
        "folder.",
        "out/sweep/"),
}


def add_arguments(parser: argparse.ArgumentParser, command: str) -> None:
    """The options scene ``command`` takes: scenes, chapter, output, content, dry run
    (render adds --keyframes; shorts --frame and --no-burn)."""
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    add_chapter(parser)
    add_language(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default=qualities.DEFAULT, help=qualities.help_text())
    output.add_argument("--out", metavar="DIR",
                        help=f"the output folder (default: {SCENE_COMMANDS[command][2]})")
    output.add_argument("--jobs", type=whole_number(1), metavar="N",
                        help="scenes rendered at once (default: the number of cores)")
    output.add_argument("--scheduler", metavar="ADDRESS",
                        help="render the scenes on a Dask cluster: its scheduler's address "
                             "(tcp://HOST:8786), or 'local' for one on this machine; "
                             "default: $EXPLAINER_SCHEDULER, else local worker processes")
    output.add_argument("--job-unit", default="auto", metavar="UNIT",
                        help="what one worker's job draws: scene, beat (a run of a scene's "
                             "beats, joined by the scene's job) or auto (the default: beats "
                             "when one scene would otherwise bound the render's time)")
    if command == "render":
        output.add_argument("--keyframes", metavar="DIR",
                            help="also save the last frame of every beat as PNG into DIR")
    if command == "shorts":
        output.add_argument("--frame", choices=("tall", "square"), default="tall",
                            help="tall 9:16 for phones (the default: 1080x1920 at publish) or "
                                 "square 1:1 for feeds (1080x1080); square clips are named "
                                 "SCENE-square.mp4")
        output.add_argument("--no-burn", action="store_true",
                            help="leave the captions out of the picture (SRT/VTT still written)")
    content = parser.add_argument_group("content")
    add_settings(content)
    content.add_argument("--no-narration", action="store_true",
                         help="render without a voice (silent video, no captions)")
    content.add_argument("--voice", default=None, metavar="NAME",
                         help="piper (the joe voice, English's default), espeak (espeak-ng's "
                              "voice for the language, any other language's default) or "
                              "piper:PATH (a Piper .onnx voice, its .onnx.json beside it); "
                              "see `render.py voices`")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")


def whole_number(least: int | None = None) -> Callable[[str], int]:
    """An option's type: a whole number (of at least ``least``), in the digits 0-9 as
    core/digits.py reads it; argparse's refusal names the option."""
    def whole(text: str) -> int:
        try:
            value = digits.whole(text)
        except ValueError:
            value = None
        if value is None or least is not None and value < least:
            more = f" of {least} or more" if least is not None else ""
            raise argparse.ArgumentTypeError(f"{quoted(text)}: must be a whole number{more}, "
                                             f"{digits.WRITTEN}")
        return value

    return whole


def add_chapter(parser: argparse.ArgumentParser) -> None:
    """--chapter NAME (default: DEFAULT_CHAPTER)."""
    parser.add_argument("--chapter", default=DEFAULT_CHAPTER, metavar="NAME",
                        help=f"the chapter, from `render.py list` (default: {DEFAULT_CHAPTER})")


#: what --language takes: a language code, with a region when it needs one (es, pt_BR)
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?\Z")


def add_language(parser: argparse.ArgumentParser) -> None:
    """--language CODE (default en) and --draft-language."""
    parser.add_argument("--language", default="en", metavar="CODE",
                        help="the language to draw and speak the chapter in: en (the "
                             "default) or a language its locale/CODE.po translates")
    parser.add_argument("--draft-language", action="store_true",
                        help="with --language: show and speak English where the "
                             "translation is missing or fuzzy, and say how many")


def in_language(args: argparse.Namespace, chapter: Chapter) -> Chapter:
    """``chapter`` in the language --language names, made active in this process; a
    UsageError (one line) for a code that is not one or a translation with gaps."""
    code = getattr(args, "language", "en")
    if not LANGUAGE.match(code):
        raise UsageError(f"--language {code!r}: not a language code; use one like en, es "
                         "or pt_BR")
    draft = getattr(args, "draft_language", False)
    if draft and code == "en":
        raise UsageError("--draft-language: English is the source; name the language "
                         "with --language CODE")
    return chapter.in_language(code, draft=draft)


def add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """--set SECTION.PARAM=VALUE, repeatable, into ``settings`` (a list of strings)."""
    parser.add_argument("--set", dest="settings", action="append", default=[],
                        metavar="SECTION.PARAM=VALUE",
                        help="change a default, e.g. spotlight.sharpness=8 (repeatable; "
                             "sweep: several values, spotlight.sharpness=1,2,4,8)")


def request(args: argparse.Namespace, chapter: Chapter) -> Request:
    """What a scene command asks for, of ``chapter`` (the one --chapter names)."""
    from production.run import Request

    return Request(chapter, scenes=args.scenes, quality=args.quality,
                   settings=args.settings, out=args.out, jobs=args.jobs,
                   narrate=not args.no_narration, voice=args.voice, scheduler=args.scheduler,
                   keyframes=getattr(args, "keyframes", None), dry_run=args.dry_run,
                   job_unit=args.job_unit)


def output(args: argparse.Namespace) -> Output:
    """The output the scene command makes: a bundle, slides, shorts or a sweep."""
    from production.outputs import shorts, slides, sweep, video

    return {"render": lambda: video.BundleOutput(whole=not args.scenes),
            "slides": slides.SlidesOutput,
            "shorts": lambda: shorts.ShortsOutput(burn=not args.no_burn, frame=args.frame),
            "sweep": sweep.SweepOutput}[args.command]()


def handle(args: argparse.Namespace, chapter: Chapter) -> int:
    """render, slides, shorts or sweep of ``chapter``, from its parsed options: its output
    through the one run sequence; the exit status."""
    from production import run

    return run.run(output(args), request(args, chapter))


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusals are one line (not its usage and then the error),
    naming the command and where its options are listed, and quoting at most 80
    characters of any argument; exit status 2."""

    given: Sequence[str] = ()  # the arguments it parses (a subcommand's: its own)

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: Any = None) -> tuple[Any, list[str]]:
        self.given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("render.py").strip()
        where = f"{command}: " if command else ""
        self.exit(2, f"render.py: error: {where}{one_line(message, self.given)} "
                     f"(see `{self.prog} --help`)\n")
