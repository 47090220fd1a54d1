"""The options of `render.py demo` (:func:`add_arguments`) and its entry (:func:`handle`).
render.py reads them for every command, so the pipeline is imported only when a demo is
rendered; and a clip's cache key, which covers :mod:`production.demo.clips` and what it
imports, does not change with the page."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from production import qualities
from production.errors import UsageError

if TYPE_CHECKING:
    from production.chapters import Chapter

HELP = "write the chapter's demo: an offline page to work its idea by hand"
DESCRIPTION = ("Write the chapter's demo into OUT (default out/demo/): index.html, an offline "
               "page with the demo's controls and bars, every number precomputed from the "
               "chapter's core into demo.json; a narrated clip of the chapter for each "
               "moment the lesson stops at, played when the controls reach it; and the core "
               "code it runs, with what it prints.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """What `render.py demo` takes."""
    from production import options

    options.add_chapter(parser)
    parser.add_argument("--quality", default=qualities.DEFAULT,
                        help="of the clips, as for render: " + qualities.help_text())
    parser.add_argument("--out", metavar="DIR", help="the demo's folder (default: out/demo/)")
    parser.add_argument("--jobs", type=options.whole_number(1), metavar="N",
                        help="scenes rendered at once")
    parser.add_argument("--voice", default=None, metavar="NAME", help="as for render")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="render the moments' scenes on a Dask cluster, as for render")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")
    options.add_language(parser)


def with_demo(chapters: dict[str, Chapter], name: str) -> Chapter:
    """The chapter ``name``, which must have a demo (a UsageError naming those that do)."""
    from production.chapters import pick

    chapter = pick(chapters, name)
    if chapter.demo is None:
        having = [c.name for c in chapters.values() if c.demo is not None]
        raise UsageError(f"demo: chapter {chapter.name} has no demo; chapters with one: "
                         f"{', '.join(having) or 'none'}")
    return chapter


def handle(args: argparse.Namespace, chapters: dict[str, Chapter]) -> int:
    """`render.py demo` from its parsed options; the exit status."""
    from production import options
    from production.demo.command import DemoOutput
    from production.run import Request, run

    chapter = options.in_language(args, with_demo(chapters, args.chapter))
    return run(DemoOutput(), Request(chapter, quality=args.quality, out=args.out,
                                     jobs=args.jobs, voice=args.voice,
                                     scheduler=args.scheduler, dry_run=args.dry_run))
