"""The command: list the scenes, print the ledger, render the chapter, its slides or a sweep.

    python render.py list
    python render.py voices
    python render.py numbers [--set SECTION.PARAM=VALUE ...]
    python render.py render [SCENE ...] [--quality preview|draft|publish|4k] [--out DIR]
                            [--jobs N] [--set ...] [--no-narration] [--voice NAME]
                            [--dry-run]
                            [--scheduler ADDRESS|local]
    python render.py slides [SCENE ...] [the same options]
    python render.py shorts [SCENE ...] [the same options] [--no-burn]
    python render.py sweep SCENE... --set SECTION.PARAM=V1,V2,... [--set ...]
                           [--quality Q] [--jobs N] [--scheduler ADDRESS|local] [--out DIR]
                           [--no-narration] [--voice NAME] [--dry-run]

Only the parser and one small function per subcommand live here; the pipeline is in
production/. Errors are raised as exceptions and turned into one line on stderr and
an exit status in :func:`main`.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from contextlib import closing
from typing import TYPE_CHECKING

from production import paths
from production.drawing import QUALITIES
from production.errors import DiskFullError, JobFailed, UsageError
from production.workers import Terminated, WorkerDied, stop_on_sigterm

if TYPE_CHECKING:
    from production.chapters import Chapter
    from production.pipeline import Plan

DEFAULT_CHAPTER = "attention"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="render.py",
        description="Render the attention chapter, or print the numbers it shows.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    listing = commands.add_parser("list", help="print every chapter with its scenes, in order")
    listing.add_argument("--json", action="store_true",
                         help='as JSON: {"chapters": [{"name", "title", "scenes"}, ...]}')
    commands.add_parser("voices", help="print the voices --voice takes, with their licences")

    numbers = commands.add_parser(
        "numbers", help="print every number the chapter shows as one JSON object"
    )
    _add_settings(numbers)
    _add_chapter(numbers)

    render = commands.add_parser(
        "render", help="render the chapter (or the named scenes) to a publish bundle",
        description="Render scenes to MP4 with narration and captions. With no scene "
                    "named, also join them into out/chapter.mp4 with chapters.txt, "
                    "thumbnail.jpg and manifest.json.")
    output = _scene_options(render, "directory for the bundle (default: out/)")
    output.add_argument("--keyframes", metavar="DIR",
                        help="also save the last frame of every beat as PNG into DIR")

    slides = commands.add_parser(
        "slides", help="write every scene as clips for slides, with deck.html and deck.pptx",
        description="For every scene (or the named ones): MP4 with and without narration, "
                    "transparent WebM (VP9 alpha) and MOV (ProRes 4444), a looping GIF, a "
                    "poster PNG and captions; plus deck.html, deck.pptx and index.json.")
    _scene_options(slides, "directory for the slide files (default: out/slides/)")

    shorts = commands.add_parser(
        "shorts", help="render every scene as a vertical 9:16 short with captions burned in",
        description="For every scene (or the named ones): a vertical clip laid out for "
                    "phones (1080x1920 at publish, 480x854 at preview), at most 3 minutes "
                    "a part, with captions burned in word by word, SRT and WebVTT, a "
                    "1080x1920 JPEG cover, and shorts.json listing them.")
    _scene_options(shorts, "directory for the shorts (default: out/shorts/)")
    shorts.add_argument("--no-burn", action="store_true",
                        help="leave the captions out of the picture (SRT/VTT still written)")
    _sweep_options(commands.add_parser(
        "sweep", help="render scenes once for every combination of --set values",
        description="Render the named scenes for every combination of the values given "
                    "with --set, each into OUT/SCENE/PARAM=VALUE[,PARAM=VALUE...]/, and "
                    "list them in OUT/index.json. A scene that does not change with a "
                    "value is rendered once and linked into each folder."))
    return parser


def _sweep_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (at least one)")
    _add_chapter(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default="publish",
                        help="preview, draft, publish or 4k, as for render; default publish")
    output.add_argument("--out", metavar="DIR", help="directory for the sweep "
                                                     "(default: out/sweep/)")
    output.add_argument("--jobs", type=int, metavar="N",
                        help="scenes rendered at once (default: the number of cores)")
    _add_scheduler(output)
    content = parser.add_argument_group("content")
    content.add_argument("--set", dest="settings", action="append", default=[],
                         metavar="SECTION.PARAM=V1,V2,...",
                         help="the values to sweep, separated by commas, e.g. "
                              "spotlight.sharpness=1,2,4,8; one value applies to every "
                              "combination (repeatable, a parameter once)")
    _add_voice_options(parser, content)


def _scene_options(parser: argparse.ArgumentParser, out_help: str) -> argparse._ArgumentGroup:
    """The options render and slides share: scenes, quality, output, content, dry run."""
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    _add_chapter(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default="publish",
                        help="preview (854x480, 15 fps), draft (1280x720, 30), "
                             "publish (1920x1080, 60) or 4k (3840x2160, 60); default publish")
    output.add_argument("--out", metavar="DIR", help=out_help)
    output.add_argument("--jobs", type=int, metavar="N",
                        help="scenes rendered at once in worker processes "
                             "(default: the number of cores)")
    content = parser.add_argument_group("content")
    _add_settings(content)
    _add_voice_options(parser, content)
    _add_scheduler(output)
    return output


def _add_voice_options(parser: argparse.ArgumentParser,
                       content: argparse._ArgumentGroup) -> None:
    """--no-narration, --voice and --dry-run, as render, slides and sweep take them."""
    content.add_argument("--no-narration", action="store_true",
                         help="render without a voice (silent video, no captions)")
    content.add_argument("--voice", default="piper", metavar="NAME",
                         help="piper (the joe voice, the default), espeak or PATH.onnx (a Piper "
                              "voice, its .onnx.json beside it); see `render.py voices`")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")


def _add_scheduler(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="render the scenes on a Dask cluster: its scheduler's address "
                            "(tcp://HOST:8786), or 'local' for one on this machine; "
                            "default: $EXPLAINER_SCHEDULER, else local worker processes")


def _add_chapter(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chapter", default=DEFAULT_CHAPTER, metavar="NAME",
                        help=f"the chapter, from `render.py list` (default: {DEFAULT_CHAPTER})")


def _add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument("--set", dest="settings", action="append", default=[],
                        metavar="SECTION.PARAM=VALUE",
                        help="change a default, e.g. spotlight.sharpness=8 (repeatable)")


def chapters() -> dict[str, Chapter]:
    """Every chapter: each folder of scenes/ with a chapter.py."""
    from production.chapters import discover

    return discover("scenes", paths.ROOT / "scenes")


def chapter(args: argparse.Namespace) -> Chapter:
    from production.chapters import pick

    return pick(chapters(), args.chapter)


def cmd_list(args: argparse.Namespace) -> int:
    found = [{"name": c.name, "title": c.title, "scenes": [s.__name__ for s in c.scenes]}
             for c in chapters().values()]
    if args.json:
        print(json.dumps({"chapters": found}, indent=1, ensure_ascii=False))
        return 0
    for c in found:
        print(f"{c['name']}: {c['title']}")
        print("\n".join(f"  {scene}" for scene in c["scenes"]))
    return 0


def cmd_voices(args: argparse.Namespace) -> int:
    from production.narration import available_voices

    for voice in available_voices():
        state = f" (cannot be used here: {voice.problem})" if voice.problem else ""
        print(f"{voice.name:<10} {voice.description}{state}")
        print(f"{'':<10} licence: {voice.licence}")
    print(f"{'PATH.onnx':<10} any Piper voice file you have, its .onnx.json beside it "
          "(its licence is its own)")
    return 0


def cmd_numbers(args: argparse.Namespace) -> int:
    from production.pipeline import parse_settings

    picked = chapter(args)
    ledger = picked.ledger.compute(parse_settings(picked, args.settings))
    sys.stdout.write(json.dumps(ledger, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    return 0


def _plan(args: argparse.Namespace, default_out: str, layout: str = "wide") -> Plan:
    from production import pipeline

    return pipeline.plan(chapter(args), scenes=args.scenes, quality=args.quality,
                         settings=args.settings,
                         out=args.out, default_out=paths.out() / default_out, jobs=args.jobs,
                         narrate=not args.no_narration,
                         keyframes=getattr(args, "keyframes", None), voice=args.voice,
                         scheduler=args.scheduler, layout=layout)


def cmd_render(args: argparse.Namespace) -> int:
    with closing(_plan(args, "")) as plan:
        return _render(args, plan)


def _render(args: argparse.Namespace, plan: Plan) -> int:
    from production import bundle, pipeline, publish, space

    if args.dry_run:
        width, height, fps = QUALITIES[plan.quality]
        for sc in plan.chosen:
            state = "cached" if plan.stored[sc.__name__] else "render"
            print(f"{state} {sc.__name__} at {width}x{height}, {fps} fps "
                  f"-> {plan.out / 'scenes' / (sc.__name__ + '.mp4')}")
        return 0
    if not plan.narrate:
        print("render.py: rendering without narration (silent)", file=sys.stderr)
    started = time.monotonic()
    with space.guarded(plan.folders, plan.space(chapter=not args.scenes)):
        pipeline.lock_output(plan)
        bundle.clear_partials(plan.out)
        results, peaks = pipeline.ensure_scenes(plan)
        publish.scenes(plan, results)
        if not args.scenes:
            print(publish.chapter(plan, results))
    print(pipeline.summary(len(peaks), len(plan.chosen), peaks, plan, started))
    pipeline.keep_in_cache(plan)
    return 0


def cmd_slides(args: argparse.Namespace) -> int:
    with closing(_plan(args, "slides")) as plan:
        return _slides(args, plan)


def _slides(args: argparse.Namespace, plan: Plan) -> int:
    from production import pipeline, publish, space

    if args.dry_run:
        for sc in plan.chosen:
            print(f"slides for {sc.__name__} -> {plan.out}")
        return 0
    started = time.monotonic()
    with space.guarded(plan.folders, plan.space(slides=True)):
        pipeline.lock_output(plan)
        peaks, index = publish.slides(plan)
    print(pipeline.summary(len(peaks), 2 * len(plan.chosen), peaks, plan, started))
    print(f"slides: {len(index['files'])} files for {len(plan.chosen)} scenes -> {plan.out}")
    pipeline.keep_in_cache(plan, ("", publish.ALPHA))
    return 0


def cmd_shorts(args: argparse.Namespace) -> int:
    with closing(_plan(args, "shorts", layout="tall")) as plan:
        return _shorts(args, plan)


def _shorts(args: argparse.Namespace, plan: Plan) -> int:
    from production import bundle, pipeline, shorts, space
    from production.drawing import frame_size

    if args.dry_run:
        width, height, fps = frame_size(plan.quality, "tall")
        for sc in plan.chosen:
            state = "cached" if plan.stored[sc.__name__] else "render"
            print(f"{state} {sc.__name__} tall at {width}x{height}, {fps} fps "
                  f"-> {plan.out / (sc.__name__ + '.mp4')}")
        return 0
    started = time.monotonic()
    with space.guarded(plan.folders, plan.space(shorts=True)):
        pipeline.lock_output(plan)
        bundle.clear_partials(plan.out)
        line, peaks = shorts.publish(plan, burn=not args.no_burn)
    print(pipeline.summary(len(peaks), len(plan.chosen), peaks, plan, started))
    print(line)
    pipeline.keep_in_cache(plan, ("", shorts.variant(not args.no_burn)))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from production import sweep

    planned = sweep.plan(chapter(args), scenes=args.scenes, settings=args.settings,
                         quality=args.quality,
                         out=args.out, jobs=args.jobs, narrate=not args.no_narration,
                         voice=args.voice, scheduler=args.scheduler)
    with closing(planned):
        print("\n".join(sweep.dry_run(planned)) if args.dry_run else sweep.run(planned))
    return 0


COMMANDS = {"list": cmd_list, "voices": cmd_voices, "numbers": cmd_numbers,
            "render": cmd_render, "slides": cmd_slides, "shorts": cmd_shorts,
            "sweep": cmd_sweep}


def main(argv: list[str] | None = None) -> int:
    from production.narration import NarrationError

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
    except (WorkerDied, JobFailed) as error:  # the scenes finished before it stay cached
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
