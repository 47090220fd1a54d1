"""A course (`render.py course`): every chapter rendered into DIR/NAME/ (its publish
bundle, cached scenes reused), then DIR/course.json and DIR/index.html over them.

index.html is one offline page: each chapter's thumbnail, title, duration and chapter
list, and one player that plays the chapter picked, with its captions. It names no
network address and loads nothing but the bundles' files, so it works straight off the
disk (file://) as well as from any static web server. Captions come from each bundle's
chapter.vtt, embedded as JSON cues (Chrome refuses a ``<track src>`` on a file:// page),
as deck.html does.

For tests the page exposes ``window.course`` with ``play(i)`` (from 0), ``seek(s)`` and
``current()`` (the <video> element).

The command's options are here too (:func:`add_arguments`). render.py reads them for
every command, so the pipeline (production.run, the video output) is imported only
when a course is rendered.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import palette
from production import captions, paths, qualities, schemas, written
from production.chapters import Chapter, course, course_title
from production.errors import UsageError
from production.language import _, name_of
from production.outputs import bundle, deck_html

if TYPE_CHECKING:
    from production.run import Request

HELP = "render every chapter, with an offline course page"
DEMO = "demo"  # a chapter's demo, in its folder
DESCRIPTION = ("Render every chapter in course order (scenes/course.txt) into DIR/NAME/ "
               "publish bundles, cached scenes reused, then write DIR/course.json and "
               "DIR/index.html: an offline page with each chapter's thumbnail, title, "
               "duration and chapter list, and a player with captions. A chapter with a "
               "demo also gets it (DIR/NAME/demo/, as `render.py demo` writes it), "
               "linked from the page.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """What `render.py course` takes: render's quality, output, jobs and voice options."""
    parser.add_argument("--quality", default=qualities.DEFAULT,
                        help="as for render: " + qualities.help_text())
    parser.add_argument("--out", metavar="DIR", help="the course folder (default: out/course/)")
    from production import options

    parser.add_argument("--jobs", type=options.whole_number(1), metavar="N",
                        help="scenes rendered at once")
    parser.add_argument("--voice", default=None, metavar="NAME", help="as for render")
    parser.add_argument("--no-narration", action="store_true", help="as for render")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")

    options.add_language(parser)


def handle(args: argparse.Namespace, chapters: dict[str, Chapter]) -> int:
    """`render.py course` of the ``chapters`` found, from its parsed options; the exit
    status."""
    return course_command(chapters, quality=args.quality, out=args.out, jobs=args.jobs,
                          narrate=not args.no_narration, voice=args.voice,
                          dry_run=args.dry_run, language=args.language,
                          draft=args.draft_language)


def course_command(chapters: dict[str, Chapter], *, quality: str, out: str | None,
                   jobs: int | None, narrate: bool, voice: str | None, dry_run: bool,
                   language: str = "en", draft: bool = False) -> int:
    """`render.py course`: the chapters found, in course order, into ``out`` (default
    out/course/; a language other than English into its CODE/ folder there)."""
    import argparse

    from production import options
    from production.run import Request

    ordered = course(chapters)
    if not ordered:
        raise UsageError("course: there are no chapters (`render.py new NAME` starts one)")
    told = argparse.Namespace(language=language, draft_language=draft)
    ordered = [options.in_language(told, chapter) for chapter in ordered]
    root = paths.output_dir(out, "--out") if out else paths.out() / "course"
    folder = root / language if language != "en" else root
    request = Request(ordered[0], quality=quality, jobs=jobs, narrate=narrate, voice=voice,
                      dry_run=dry_run)
    return render_course(ordered, request, folder, course_title(chapters, language))


def render_course(chapters: list[Chapter], request: Request, out: Path, title: str) -> int:
    """Render each chapter's bundle into ``out``/NAME/ (``request`` as for `render`, its
    chapter and folder set per chapter), then write the course's page and listing under
    ``title``."""
    from production.outputs.video import BundleOutput
    from production.run import run

    check_all(chapters)
    entries = []
    for chapter in chapters:
        chapter = chapter.in_language(chapter.language, draft=chapter.draft,
                                      checked=True)  # active now
        status = run(BundleOutput(whole=True),
                     dataclasses.replace(request, chapter=chapter, scenes=[],
                                         out=str(out / chapter.name)))
        if status:
            return status
        if chapter.demo is not None:
            from production.demo.command import DemoOutput

            status = run(DemoOutput(back="../../index.html"),
                         dataclasses.replace(request, chapter=chapter, scenes=[],
                                             out=str(out / chapter.name / DEMO)))
            if status:
                return status
        if not request.dry_run:  # while its language's messages are active
            entries.append(entry(chapter, out))
    if request.dry_run:
        print(f"would write {out / 'course.json'} and {out / 'index.html'} over "
              f"{len(chapters)} chapters")
        return 0
    language = chapters[0].language
    # its pages are published over no file but its own (production/written.py)
    written.write_text(out, "course.json", json.dumps(
        {"title": title, **({"language": language} if language != "en" else {}),
         "chapters": entries}, indent=1, ensure_ascii=False))
    root = out.parent if language != "en" else out
    for code, folder in rendered_languages(root).items():  # each page offers every language
        listing = schemas.read(folder / "course.json", "course.json",
                               "make it again with `render.py course`")
        written.write_text(folder, "index.html",
                           page(listing["title"], listing["chapters"], folder,
                                languages(root, folder, code)))
    print(f"course: {len(entries)} chapters, "
          f"{bundle.timestamp(sum(e['duration'] for e in entries))} in all -> "
          f"{out / 'index.html'}")
    return 0


def check_all(chapters: list[Chapter]) -> None:
    """Everything about every chapter that can be checked before the first is drawn: its
    parts fit (a narration file for every scene, readable, a passage per beat), its marks,
    its thumbnail. A later chapter's missing narration was found after the earlier
    chapters were drawn."""
    from production.chapters import problems
    from production.outputs.video import check_thumbnail
    from production.pipeline import check_marks

    for chapter in chapters:
        found = problems(chapter)
        if found:
            raise UsageError(f"course: chapter {chapter.name}: {found[0]}")
        check_marks(chapter, list(chapter.scenes), {})
        check_thumbnail(chapter)


def entry(chapter: Chapter, out: Path) -> dict[str, Any]:
    """What course.json says of one rendered chapter (paths relative to ``out``)."""
    folder = out / chapter.name
    manifest = schemas.read(folder / "manifest.json", "manifest.json",
                            "render the chapter again")
    return {"name": chapter.name, "title": manifest["title"],
            "duration": round(float(manifest["duration"]), 3),
            "video": f"{chapter.name}/chapter.mp4", "captions": f"{chapter.name}/chapter.vtt",
            "thumbnail": f"{chapter.name}/thumbnail.jpg",
            **({"demo": f"{chapter.name}/{DEMO}/index.html",
                "demo_link": _(chapter.demo.link or chapter.demo.title)}
               if chapter.demo is not None else {})}


def chapter_list(text: str) -> list[tuple[float, str]]:
    """chapters.txt ("M:SS Title" a line) as (seconds, title) pairs."""
    found = []
    for line in text.splitlines():
        stamp, _sep, title = line.strip().partition(" ")
        if not title:
            continue
        seconds = 0.0
        for part in stamp.split(":"):
            seconds = seconds * 60 + float(part)
        found.append((seconds, title))
    return found


def rendered_languages(root: Path) -> dict[str, Path]:
    """The languages a course was rendered in: English in ``root``, each other language
    in ``root``/CODE/ (each folder with a course.json), by code."""
    found = {"en": root} if (root / "course.json").is_file() else {}
    for sub in sorted(root.iterdir()) if root.is_dir() else []:
        if len(sub.name) <= 6 and sub.name[:2].islower() and (sub / "course.json").is_file():
            found[sub.name] = sub
    return found


def languages(root: Path, here: Path, code: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The page's language and the languages it offers: (code, name, link from ``here``)."""
    import os

    offered = [(c, name_of(c),
                Path(os.path.relpath(folder / "index.html", here)).as_posix())
               for c, folder in rendered_languages(root).items()]
    return code, offered


def page(title: str, entries: list[dict[str, Any]], out: Path,
         speaks: tuple[str, list[tuple[str, str, str]]] = ("en", [])) -> str:
    """The course page's HTML text, headed ``title``, in the language ``speaks`` names,
    with a link to each language the course was rendered in."""
    data = []
    items = []
    for i, e in enumerate(entries):
        folder = out / e["name"]
        parts = chapter_list((folder / "chapters.txt").read_text(encoding="utf-8"))
        vtt = (out / e["captions"]).read_text(encoding="utf-8")
        data.append({"title": e["title"], "video": deck_html.relative_url(e["video"], "video"),
                     "captions": captions.read_vtt(vtt)})
        listed = "\n".join(
            f'      <li><button type="button" data-chapter="{i}" data-at="{at:.3f}">'
            f'<span class="at">{bundle.timestamp(at)}</span> {deck_html.attribute(title)}'
            f"</button></li>" for at, title in parts)
        thumbnail = deck_html.relative_url(e["thumbnail"], "thumbnail")
        demo = "" if "demo" not in e else (
            f'      <p class="demo"><a href="'
            f'{deck_html.attribute(deck_html.relative_url(e["demo"], "demo"))}">'
            f'{deck_html.attribute(e.get("demo_link", e["demo"]))}</a></p>\n')
        items.append(
            f'  <article class="chapter" id="chapter-{i + 1}">\n'
            f'    <button type="button" class="play" data-chapter="{i}" data-at="0">'
            f'<img src="{deck_html.attribute(thumbnail)}" alt=""></button>\n'
            f"    <div>\n"
            f"      <h2>{i + 1}. {deck_html.attribute(e['title'])}</h2>\n"
            f'      <p class="duration">{bundle.timestamp(e["duration"])}</p>\n'
            f"      <ol>\n{listed}\n      </ol>\n{demo}"
            f"    </div>\n"
            f"  </article>")
    code, offered = speaks
    nav = "" if len(offered) < 2 else (
        '<nav class="languages" aria-label="languages">' + " · ".join(
            f'<a href="{deck_html.attribute(link)}" hreflang="{c}" lang="{c}"'
            + (' aria-current="page"' if c == code else "") + f">{deck_html.attribute(name)}</a>"
            for c, name, link in offered) + "</nav>")
    parts = {"TITLE": deck_html.attribute(title), "CHAPTERS": "\n".join(items),
             "LANG": code.replace("_", "-"), "LANGUAGES": nav,
             "CSS": _CSS.replace("@@BACKGROUND@@", deck_html.BACKGROUND)
                        .replace("@@ACCENT@@", palette.WEIGHT),
             "DATA": deck_html.script_json({"chapters": data, "language": code.replace("_", "-"),
                                            "language_name": name_of(code)}),
             "JS": _JS}
    return re.sub(r"@@([A-Z_]+)@@", lambda m: parts[m.group(1)], _PAGE)


_CSS = """
*, *::before, *::after { box-sizing: border-box; }
body {
  margin: 0 auto; max-width: 1100px; padding: 1.5em 2vw 3em;
  background: @@BACKGROUND@@; color: #D8DCE3;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
}
h1 { font-size: 1.5em; margin: 0 0 0.6em; }
#player { width: 100%; aspect-ratio: 16 / 9; background: #000; display: block; }
#now { color: #8A93A3; margin: 0.4em 0 1.6em; }
video::cue { font-size: 0.9em; background: rgba(0, 0, 0, 0.72); }
.chapter { display: flex; gap: 1.2em; margin: 0 0 1.6em; align-items: flex-start; }
.chapter .play { flex: 0 0 min(38%, 360px); padding: 0; border: 0; background: none;
  cursor: pointer; }
.chapter img { width: 100%; display: block; border-radius: 4px; }
.chapter h2 { font-size: 1.15em; margin: 0 0 0.2em; }
.duration { color: #8A93A3; margin: 0 0 0.5em; }
.chapter ol { list-style: none; margin: 0; padding: 0; }
.chapter li button { font: inherit; font-size: 0.92em; color: #C5CAD3; background: none;
  border: 0; padding: 0.1em 0; cursor: pointer; text-align: left; }
.chapter li button:hover { color: @@ACCENT@@; }
.languages { margin: 0 0 0.8em; color: #8A93A3; }
.languages a { color: #C5CAD3; }
.languages a[aria-current] { color: @@ACCENT@@; text-decoration: none; }
.demo a { color: @@ACCENT@@; font-weight: 600; }
.at { font-variant-numeric: tabular-nums; color: #8A93A3; margin-right: 0.4em; }
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("course-data").textContent);
  var video = document.getElementById("player");
  var now = document.getElementById("now");
  var state = { index: -1, track: null };

  // WebVTT cue text is markup: escape it so the narration shows as written.
  function cueText(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function load(i) {
    if (i === state.index) { return; }
    state.index = i;
    if (state.track) { state.track.mode = "disabled"; }
    video.src = data.chapters[i].video;
    var track = video.addTextTrack("captions", data.language_name, data.language);
    data.chapters[i].captions.forEach(function (cue) {
      track.addCue(new VTTCue(cue[0], cue[1], cueText(cue[2])));
    });
    track.mode = "showing";
    state.track = track;
    now.textContent = (i + 1) + ". " + data.chapters[i].title;
  }

  function play(i, at) {
    load(i);
    var go = function () {
      video.currentTime = at || 0;
      video.play().catch(function () { /* the browser wants a click first */ });
    };
    if (video.readyState >= 1) { go(); } else {
      video.addEventListener("loadedmetadata", go, { once: true });
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-chapter]");
    if (!button) { return; }
    play(parseInt(button.dataset.chapter, 10), parseFloat(button.dataset.at));
    video.scrollIntoView({ behavior: "smooth", block: "start" });
  });

  window.course = {
    play: play,
    seek: function (s) { video.currentTime = s; },
    current: function () { return video; },
    index: function () { return state.index; }
  };
  load(0);
})();
"""

_PAGE = deck_html.HEAD + """@@LANGUAGES@@
<h1>@@TITLE@@</h1>
<video id="player" controls preload="metadata" playsinline></video>
<p id="now"></p>
<main>
@@CHAPTERS@@
</main>
<script type="application/json" id="course-data">@@DATA@@</script>
<script>@@JS@@</script>
</body>
</html>
"""
