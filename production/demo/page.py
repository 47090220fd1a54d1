"""The demo's page, index.html: one offline file (its clips beside it in clips/) that
opens from file:// and loads nothing from a network.

The controls are written here as HTML (labelled radio buttons, a range input whose
value reads as text, a check box), so they work from the keyboard and a screen reader
reads them; the page's script only looks the chosen setting's state up in the data and
shows it: each bar's width and value, a sentence saying them all (a polite live
region), the note under them, and what "Run it" prints. When a change of the controls
reaches a moment's setting, its clip plays with its captions (embedded as cues: Chrome
refuses a ``<track src>`` on a file:// page); when they leave it, the clip pauses, so
clip and bars never disagree.

For tests the page exposes ``window.demo``: ``key()`` (the setting shown),
``playing()`` (the moment whose clip is loaded, and whether it plays) and ``video()``.
"""

from __future__ import annotations

import re
from typing import Any

from production.language import _
from production.outputs.deck_html import HEAD, attribute, relative_url, script_json


def _control(c: dict[str, Any]) -> str:
    """One control's markup."""
    name = attribute(c["name"])
    if c["kind"] == "box":
        checked = " checked" if c["start"] else ""
        return (f'<label class="box"><input type="checkbox" id="c-{name}" data-control="'
                f'{name}"{checked}> {attribute(c["label"])}</label>')
    if c["kind"] == "slider":
        start = c["start"]
        shown = attribute(c["values"][start])
        return (f'<div class="slider"><label for="c-{name}">{attribute(c["label"])}</label> '
                f'<output id="o-{name}" for="c-{name}">{shown}</output>\n'
                f'<input type="range" id="c-{name}" data-control="{name}" min="0" '
                f'max="{len(c["values"]) - 1}" step="1" value="{start}" '
                f'aria-valuetext="{shown}"></div>')
    radios = "\n".join(
        f'<label><input type="radio" name="{name}" value="{i}" data-control="{name}"'
        f'{" checked" if i == c["start"] else ""}> {attribute(v)}</label>'
        for i, v in enumerate(c["values"]))
    return f'<fieldset><legend>{attribute(c["label"])}</legend>\n{radios}\n</fieldset>'


def _bars(state: dict[str, Any]) -> str:
    return "\n".join(
        f'<li{" class=hidden" if b["hidden"] else ""}><span class="word">'
        f'{attribute(b["label"])}</span><span class="track" aria-hidden="true">'
        f'<span class="bar" style="width:{b["width"]}"></span></span>'
        f'<span class="value">{attribute(b["value"])}</span></li>' for b in state["bars"])


def _moments(data: dict[str, Any]) -> str:
    return "\n".join(
        f'<li><button type="button" data-moment="{i}">{attribute(m["title"])}</button></li>'
        for i, m in enumerate(data["moments"]))


def _source(c: dict[str, Any]) -> str:
    return (f'<figure class="code"><figcaption>{attribute(c["file"])}, line {c["line"]}: '
            f'<code>{attribute(c["name"])}</code></figcaption>\n'
            f'<pre><code>{attribute(c["source"])}</code></pre></figure>')


def _calls(data: dict[str, Any]) -> str:
    """The functions the first one calls, folded under it."""
    rest = data["code"][1:]
    if not rest:
        return ""
    names = ", ".join(c["name"] for c in rest)
    calls = _("What it calls:")
    return (f"<details><summary>{attribute(calls)} <code>{attribute(names)}"
            "</code></summary>\n"
            + "\n".join(_source(c) for c in rest) + "\n</details>")


def render(data: dict[str, Any], colours: Any, back: str = "") -> str:
    """The page's HTML text for ``data`` (:func:`production.demo.data.build`, each moment
    with its "video" and "captions"), in the chapter's ``colours`` (its palette); ``back``,
    when given, a relative link to the page it belongs to (the course)."""
    for m in data["moments"]:
        relative_url(m["video"], f"moment {m['name']}: video")
        relative_url(m["poster"], f"moment {m['name']}: poster")
    start = data["states"][data["start"]]
    course = _("← the course")
    parts = {
        "TITLE": attribute(data["title"]), "INTRO": attribute(data["intro"]),
        "BACK": f'<p class="back"><a href="{attribute(back)}">{attribute(course)}</a></p>'
                if back else "",
        "CONTROLS": "\n".join(_control(c) for c in data["controls"]),
        "BARS_LABEL": attribute(data["bars_label"]), "BARS": _bars(start),
        "NOTE": attribute(start["note"]), "SAID": attribute(start["said"]),
        "MOMENTS": _moments(data), "CODE_INTRO": attribute(data["code_intro"]),
        "CODE": _source(data["code"][0]), "CALLS": _calls(data),
        "PRINTS": _("What {name} prints at this setting").format(
            name=f'<code>{attribute(data["code"][0]["name"])}</code>'),
        "LANG": attribute(data["language"]),
        "DEMO_LABEL": attribute(_("The demo")), "WATCH": attribute(_("Hear it explained")),
        "MOMENTS_LABEL": attribute(_("Settings the narration explains")),
        "RUN_IT": attribute(_("Run it")),
        "PRINTED": attribute(start["printed"]),
        "CSS": re.sub(r"@@([A-Z]+)@@", lambda m: getattr(colours, m.group(1)), _CSS),
        "DATA": script_json(data), "JS": _JS,
    }
    # One pass, so text put in for one placeholder is never read as another.
    return re.sub(r"@@([A-Z_]+)@@", lambda m: parts[m.group(1)], _PAGE)


_CSS = """
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1180px; padding: 1.2em 3vw 3em; background: @@BACKGROUND@@;
  color: @@INK@@; font: 17px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", sans-serif; }
h1 { font-size: 1.6em; margin: 0 0 0.3em; }
h2 { font-size: 1.2em; margin: 0 0 0.5em; }
.intro { color: @@MUTED@@; max-width: 60em; margin: 0 0 1.2em; }
.back a, .moments button:hover { color: @@WEIGHT@@; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2em; }
@media (max-width: 820px) { .layout { grid-template-columns: minmax(0, 1fr); } }
fieldset { border: 1px solid @@FAINT@@; border-radius: 6px; margin: 0 0 0.9em;
  padding: 0.4em 0.8em 0.6em; }
legend, .slider label { font-weight: 600; }
fieldset label { display: inline-block; margin: 0.25em 1.1em 0.25em 0; cursor: pointer; }
.slider { margin: 0 0 0.9em; }
.slider output { color: @@WEIGHT@@; font-weight: 700; font-variant-numeric: tabular-nums; }
.slider input { width: 100%; accent-color: @@WEIGHT@@; height: 2em; }
.box { display: block; margin: 0 0 1.2em; cursor: pointer; }
input[type=radio], input[type=checkbox] { accent-color: @@WEIGHT@@; width: 1.1em; height: 1.1em; }
:focus-visible { outline: 3px solid @@KEY@@; outline-offset: 2px; }
figure { margin: 0; }
figcaption { color: @@MUTED@@; margin: 0 0 0.4em; }
#bars { list-style: none; margin: 0; padding: 0; }
#bars li { display: grid; grid-template-columns: 3.2em 1fr 4.2em; align-items: center;
  gap: 0.6em; margin: 0 0 0.55em; font-size: 1.25em; }
.track { height: 1.3em; background: @@FAINT@@; border-radius: 3px; overflow: hidden; }
.bar { display: block; height: 100%; background: @@WEIGHT@@; transition: width 0.25s; }
.value { text-align: right; font-variant-numeric: tabular-nums; font-weight: 700; }
#bars li.hidden { color: @@MUTED@@; }
#bars li.hidden .value { font-weight: 400; font-size: 0.8em; }
#note { color: @@MUTED@@; }
video { width: 100%; aspect-ratio: 16 / 9; background: #000; display: block; border-radius: 4px; }
video::cue { font-size: 1.1em; background: rgba(0, 0, 0, 0.75); }
#moment { margin: 0.4em 0 0.8em; color: @@MUTED@@; min-height: 1.4em; }
.moments { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.4em; }
.moments button { font: inherit; font-size: 0.85em; color: @@INK@@; background: none;
  border: 1px solid @@FAINT@@; border-radius: 4px; padding: 0.3em 0.6em; cursor: pointer; }
.moments button[aria-pressed=true] { border-color: @@WEIGHT@@; color: @@WEIGHT@@; }
.run { margin-top: 2.2em; }
details summary { cursor: pointer; color: @@MUTED@@; margin: 0 0 0.6em; }
pre { background: #0C0D10; border: 1px solid @@FAINT@@; border-radius: 6px; padding: 0.8em 1em;
  overflow-x: auto; font: 14px/1.45 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
#printed { color: @@WEIGHT@@; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("demo-data").textContent);
  var video = document.getElementById("clip");
  var bars = document.querySelectorAll("#bars li");
  var buttons = document.querySelectorAll("button[data-moment]");
  var loaded = { index: -1, track: null };

  // The setting as its key: each control's value's index, joined by "|".
  function key() {
    return data.controls.map(function (c) {
      if (c.kind === "box") { return document.getElementById("c-" + c.name).checked ? "1" : "0"; }
      if (c.kind === "slider") { return document.getElementById("c-" + c.name).value; }
      return document.querySelector("input[name='" + c.name + "']:checked").value;
    }).join("|");
  }

  function show() {
    var state = data.states[key()];
    state.bars.forEach(function (b, i) {
      bars[i].classList.toggle("hidden", b.hidden);
      bars[i].querySelector(".word").textContent = b.label;
      bars[i].querySelector(".bar").style.width = b.width;
      bars[i].querySelector(".value").textContent = b.value;
    });
    document.getElementById("said").textContent = state.said;
    document.getElementById("note").textContent = state.note;
    document.getElementById("printed").textContent = state.printed;
    data.controls.forEach(function (c, i) {
      if (c.kind !== "slider") { return; }
      var shown = c.values[parseInt(key().split("|")[i], 10)];
      document.getElementById("o-" + c.name).textContent = shown;
      document.getElementById("c-" + c.name).setAttribute("aria-valuetext", shown);
    });
  }

  // WebVTT cue text is markup: escape it so the narration shows as written.
  function cueText(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function load(i) {
    if (i === loaded.index) { return; }
    var m = data.moments[i];
    loaded.index = i;
    if (loaded.track) { loaded.track.mode = "disabled"; }
    video.poster = m.poster;
    video.src = m.video;
    var track = video.addTextTrack("captions", data.language_name, data.language);
    m.captions.forEach(function (cue) {
      track.addCue(new VTTCue(cue[0], cue[1], cueText(cue[2])));
    });
    track.mode = "showing";
    loaded.track = track;
    document.getElementById("moment").textContent = m.title;
    buttons.forEach(function (b, j) { b.setAttribute("aria-pressed", String(j === i)); });
  }

  // After the controls change: the moment their setting reaches plays from its start;
  // a clip whose setting they left pauses.
  function reached() {
    var here = key();
    var found = -1;
    data.moments.forEach(function (m, i) { if (found < 0 && m.when === here) { found = i; } });
    if (found < 0) {
      if (!video.paused) { video.pause(); }
      return;
    }
    load(found);
    video.currentTime = 0;
    video.play().catch(function () { /* the browser wants a click first */ });
  }

  function set(when) {
    when.split("|").forEach(function (v, i) {
      var c = data.controls[i];
      if (c.kind === "box") { document.getElementById("c-" + c.name).checked = v === "1"; }
      else if (c.kind === "slider") { document.getElementById("c-" + c.name).value = v; }
      else {
        document.querySelector("input[name='" + c.name + "'][value='" + v + "']").checked = true;
      }
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.dataset.control) { show(); }
  });
  document.addEventListener("change", function (event) {
    if (event.target.dataset.control) { show(); reached(); }
  });
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      set(data.moments[parseInt(b.dataset.moment, 10)].when);
      show();
      reached();
    });
  });

  window.demo = {
    key: key,
    video: function () { return video; },
    playing: function () {
      return { moment: loaded.index < 0 ? null : data.moments[loaded.index].name,
               playing: !video.paused && video.currentTime > 0 };
    }
  };
  show();
  data.moments.forEach(function (m, i) { if (loaded.index < 0 && m.when === key()) { load(i); } });
})();
"""

_PAGE = HEAD + """@@BACK@@
<h1>@@TITLE@@</h1>
<p class="intro">@@INTRO@@</p>
<main class="layout">
<section class="try" aria-label="@@DEMO_LABEL@@">
<form class="controls" onsubmit="return false">
@@CONTROLS@@
</form>
<figure class="bars">
<figcaption id="bars-label">@@BARS_LABEL@@</figcaption>
<ol id="bars" aria-labelledby="bars-label">
@@BARS@@
</ol>
<p id="note">@@NOTE@@</p>
<p id="said" class="visually-hidden" aria-live="polite">@@SAID@@</p>
</figure>
</section>
<section class="watch" aria-labelledby="watch-title">
<h2 id="watch-title">@@WATCH@@</h2>
<video id="clip" controls playsinline preload="none"></video>
<p id="moment" aria-live="polite"></p>
<ul class="moments" aria-label="@@MOMENTS_LABEL@@">
@@MOMENTS@@
</ul>
</section>
</main>
<section class="run" aria-labelledby="run-title">
<h2 id="run-title">@@RUN_IT@@</h2>
<p class="intro">@@CODE_INTRO@@</p>
@@CODE@@
<figure><figcaption>@@PRINTS@@</figcaption>
<pre id="printed" aria-live="off">@@PRINTED@@</pre></figure>
@@CALLS@@
</section>
<script type="application/json" id="demo-data">@@DATA@@</script>
<script>@@JS@@</script>
</body>
</html>
"""
