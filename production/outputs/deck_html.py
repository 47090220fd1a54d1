"""deck.html: the chapter's scenes as a self-contained slide deck for a browser.

One HTML file with its CSS and JavaScript inline; it fetches nothing from any
server (no fonts, no scripts). The clips and posters are sibling files named
by relative URL, so the deck works from a folder opened straight off the disk
(file://) as well as from any static web server.

In the browser, one slide shows at a time, its clip large on a dark page with
a small title and an "n / N" counter. Keys:

- Right, Space, PageDown: next slide; Left, PageUp: previous; Home, End.
- L: loop the clips on or off (all clips); N: speaker notes (the narration)
  under the clip; C: captions on or off.

A slide's clip plays from its start when the slide shows, and the clip it
replaces pauses. Where the browser refuses to autoplay with sound, the clip
plays muted and a "click for sound" hint unmutes it.

The URL hash sets the start state, as tokens joined by "&" or ",": ``loop``,
``notes``, ``nocaptions`` and a slide number counted from 1 (``deck.html#3&loop``).

Captions are built in JavaScript from cues embedded as JSON rather than loaded
from .vtt files, because Chrome refuses a ``<track src>`` on a file:// page
(it counts as cross-origin). For tests the page exposes ``window.deck`` with
``index()`` (from 0), ``count()``, ``go(i)``, ``next()``, ``prev()`` and
``current()`` (the current <video> element).
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from core import palette
from production.files import write_text

BACKGROUND = palette.BACKGROUND  # the chapter's, so a clip's edges vanish into the page

#: how every page the project writes begins (the deck, the course page, a demo): its
#: language, title and style sheet are filled in as @@LANG@@, @@TITLE@@ and @@CSS@@
HEAD = """<!DOCTYPE html>
<html lang="@@LANG@@">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>@@CSS@@</style>
</head>
<body>
"""


@dataclass(frozen=True)
class Slide:
    name: str  # scene name, e.g. "TwoJobs"
    title: str  # short title shown on the slide
    video: str  # file name of the clip relative to the deck, e.g. "TwoJobs.mp4"
    poster: str  # file name of the poster PNG, e.g. "TwoJobs.png"
    captions: list[tuple[float, float, str]]  # (start s, end s, text) cues
    notes: str  # the narration, for speaker notes
    seconds: float  # clip duration, seconds


def relative_url(name: str, what: str) -> str:
    """``name`` as a relative URL (percent-encoded); a URL or absolute path is refused,
    because the deck must load nothing from outside its own folder."""
    if not name or urlsplit(name).scheme or urlsplit(name).netloc or name.startswith(("/", "\\")):
        raise ValueError(f"{what} must be a file name relative to the deck, not {name!r}")
    return quote(name.replace("\\", "/"))


def attribute(text: str) -> str:
    return html.escape(text, quote=True)


def script_json(data: object) -> str:
    """JSON that is safe inside <script>: no "<" (so no "</script>" or "<!--"), no
    ">" or "&", and no U+2028/U+2029 line separators."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def _slide_data(slide: Slide) -> dict[str, object]:
    return {
        "name": slide.name,
        "title": slide.title,
        "notes": slide.notes,
        "seconds": float(slide.seconds),
        "captions": [[float(start), float(end), str(text)] for start, end, text in slide.captions],
    }


def _slide_markup(number: int, slide: Slide) -> str:
    video = relative_url(slide.video, f"{slide.name}: video")
    poster = relative_url(slide.poster, f"{slide.name}: poster")
    return (
        f'<section class="slide" data-name="{attribute(slide.name)}" '
        f'aria-label="{number}: {attribute(slide.title)}">\n'
        f'  <video src="{attribute(video)}" poster="{attribute(poster)}" preload="metadata" '
        f"playsinline></video>\n"
        f"</section>"
    )


def render(slides: list[Slide], title: str) -> str:
    """The deck's HTML text, in the active language (its captions' track and the page's
    ``lang``)."""
    if not slides:
        raise ValueError("a deck needs at least one slide")
    from production import language

    tag = language.code().replace("_", "-")
    parts = {
        "LANG": tag,
        "TITLE": attribute(title),
        "FIRST_TITLE": attribute(slides[0].title),
        "COUNT": str(len(slides)),
        "CSS": _CSS.replace("@@BACKGROUND@@", BACKGROUND),
        "SLIDES": "\n".join(_slide_markup(i + 1, s) for i, s in enumerate(slides)),
        "DATA": script_json({"title": title, "slides": [_slide_data(s) for s in slides],
                             "language": tag, "language_name": language.name_of(tag)}),
        "JS": _JS,
    }
    # One pass, so text put in for one placeholder is never read as another.
    return re.sub(r"@@([A-Z_]+)@@", lambda m: parts[m.group(1)], _PAGE)


def write_deck(slides: list[Slide], target: Path, title: str) -> Path:
    """Write the deck to ``target`` (through a hidden temporary name) and return it.

    The clips and posters are not copied: they must sit where their relative names
    point from ``target``'s folder.
    """
    return write_text(target, render(slides, title))


_CSS = """
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body {
  background: @@BACKGROUND@@; color: #D8DCE3; overflow: hidden;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  display: flex; flex-direction: column;
}
#stage { position: relative; flex: 1 1 auto; min-height: 0; margin: 2vh 2vw 0; }
.slide { position: absolute; inset: 0; display: none; }
.slide.current { display: block; }
.slide video {
  width: 100%; height: 100%; object-fit: contain; display: block; background: @@BACKGROUND@@;
}
video::cue { font-size: 0.9em; background: rgba(0, 0, 0, 0.72); }
#notes {
  flex: 0 0 auto; max-height: 28vh; overflow-y: auto; margin: 1.2vh 2vw 0;
  padding: 0.7em 1em; border-left: 3px solid #4B5363; background: #1C1F26;
  white-space: pre-wrap; color: #C5CAD3;
}
#notes[hidden] { display: none; }
footer {
  flex: 0 0 auto; display: flex; align-items: center; gap: 1.2em;
  padding: 0.6em 2vw 0.8em; font-size: 13px; color: #8A93A3;
}
#title { flex: 1 1 auto; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
#keys { color: #5C6575; }
.flag {
  padding: 0.05em 0.55em; border: 1px solid #5C6575; border-radius: 3px; color: #D8DCE3;
}
.flag[hidden] { display: none; }
#counter { font-variant-numeric: tabular-nums; color: #D8DCE3; }
#sound {
  position: fixed; top: 1.2em; right: 1.2em; z-index: 2; cursor: pointer;
  font: inherit; font-size: 14px; color: @@BACKGROUND@@; background: #E8C468;
  border: 0; border-radius: 4px; padding: 0.45em 0.9em;
}
#sound[hidden] { display: none; }
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("deck-data").textContent);
  var slides = Array.prototype.slice.call(document.querySelectorAll("#stage .slide"));
  var videos = slides.map(function (s) { return s.querySelector("video"); });
  var ui = {
    title: document.getElementById("title"),
    counter: document.getElementById("counter"),
    notes: document.getElementById("notes"),
    loop: document.getElementById("loop-flag"),
    captions: document.getElementById("captions-flag"),
    sound: document.getElementById("sound")
  };
  var state = { index: -1, loop: false, captions: true, notes: false, muted: false };

  // WebVTT cue text is markup ("<b>", "&amp;"): escape it so the narration shows as written.
  function cueText(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  var tracks = videos.map(function (video, i) {
    var track = video.addTextTrack("captions", data.language_name, data.language);
    data.slides[i].captions.forEach(function (cue) {
      track.addCue(new VTTCue(cue[0], cue[1], cueText(cue[2])));
    });
    return track;
  });

  function setCaptions(on) {
    state.captions = on;
    tracks.forEach(function (track) { track.mode = on ? "showing" : "hidden"; });
    ui.captions.hidden = on;
  }

  function setLoop(on) {
    state.loop = on;
    videos.forEach(function (video) { video.loop = on; });
    ui.loop.hidden = !on;
  }

  function setNotes(on) {
    state.notes = on;
    ui.notes.hidden = !on;
  }

  function setMuted(on) {
    state.muted = on;
    videos.forEach(function (video) { video.muted = on; });
    ui.sound.hidden = !on;
  }

  function start(video) {
    video.currentTime = 0;
    var playing = video.play();
    if (!playing) { return; }
    playing.catch(function (error) {
      // Autoplay with sound refused: play muted and offer sound on the next click.
      if (error && error.name === "NotAllowedError" && !video.muted) {
        setMuted(true);
        if (video === current()) { video.play().catch(function () {}); }
      }
      // AbortError: a pause() (the next key press) interrupted play(); nothing to do.
    });
  }

  function current() { return videos[state.index]; }

  function go(i) {
    i = Math.max(0, Math.min(videos.length - 1, Math.floor(Number(i)) || 0));
    var before = current();
    if (before && before !== videos[i]) { before.pause(); }
    if (state.index >= 0) { slides[state.index].classList.remove("current"); }
    state.index = i;
    slides[i].classList.add("current");
    var slide = data.slides[i];
    ui.title.textContent = slide.title;
    ui.counter.textContent = (i + 1) + " / " + videos.length;
    ui.notes.textContent = slide.notes;
    if (videos[i + 1]) { videos[i + 1].preload = "auto"; }
    start(videos[i]);
    return i;
  }

  function next() { return state.index < videos.length - 1 ? go(state.index + 1) : state.index; }
  function prev() { return state.index > 0 ? go(state.index - 1) : state.index; }

  var keys = {
    "ArrowRight": next, " ": next, "PageDown": next,
    "ArrowLeft": prev, "PageUp": prev,
    "Home": function () { go(0); },
    "End": function () { go(videos.length - 1); },
    "l": function () { setLoop(!state.loop); },
    "n": function () { setNotes(!state.notes); },
    "c": function () { setCaptions(!state.captions); }
  };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey) { return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var action = keys[key];
    if (!action) { return; }
    event.preventDefault();
    action();
  });

  // Any click while muted brings the sound back (a click is the gesture browsers ask for);
  // otherwise a click on the clip pauses or resumes it.
  document.addEventListener("click", function (event) {
    if (state.muted) {
      setMuted(false);
      if (current().paused) { current().play().catch(function () {}); }
      return;
    }
    var video = current();
    if (event.target === video) {
      if (video.paused) { video.play().catch(function () {}); } else { video.pause(); }
    }
  });

  var startAt = 0;
  var wantLoop = false, wantNotes = false, wantCaptions = true;
  var hash = location.hash.replace(/^#/, "");
  try { hash = decodeURIComponent(hash); } catch (error) { /* keep it as written */ }
  hash.split(/[&,]/).forEach(function (raw) {
    var token = raw.trim().toLowerCase();
    if (token === "loop") { wantLoop = true; }
    else if (token === "notes") { wantNotes = true; }
    else if (token === "nocaptions") { wantCaptions = false; }
    else if (/^\d+$/.test(token)) { startAt = parseInt(token, 10) - 1; }
  });
  setLoop(wantLoop);
  setNotes(wantNotes);
  setCaptions(wantCaptions);

  window.deck = {
    index: function () { return state.index; },
    count: function () { return videos.length; },
    go: go,
    next: next,
    prev: prev,
    current: current
  };
  go(startAt);
})();
"""

_PAGE = HEAD + """<main id="stage">
@@SLIDES@@
</main>
<aside id="notes" hidden></aside>
<footer>
  <span id="title">@@FIRST_TITLE@@</span>
  <span id="keys">&larr; &rarr; slides &middot; L loop &middot; N notes &middot; C captions</span>
  <span id="loop-flag" class="flag" hidden>loop</span>
  <span id="captions-flag" class="flag" hidden>captions off</span>
  <span id="counter">1 / @@COUNT@@</span>
</footer>
<button id="sound" type="button" hidden>click for sound</button>
<script type="application/json" id="deck-data">@@DATA@@</script>
<script>@@JS@@</script>
</body>
</html>
"""
