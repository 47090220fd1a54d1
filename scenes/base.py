"""ChapterScene: a Scene made of timed beats, with its numbers from the ledger.

A beat is what the viewer sees between two narration passages. Its length in
seconds is an input (``beat_seconds``, later replaced by the measured length
of its passage), and the animations inside a beat take fractions of it
(``beat.part(0.3)``), so a longer passage stretches the pictures rather than
running past them. At the end of every beat the scene pads with a wait up to
the beat's length, checks its layout (every text inside the frame, no two
texts overlapping, none too small to read), and can save the frame as a PNG.
"""

from __future__ import annotations

import copy
import html
import math
import re
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np
from manim import (
    DL,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    UR,
    FadeOut,
    ManimColor,
    MarkupText,
    Mobject,
    Scene,
    Text,
    VGroup,
    config,
)
from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP
from manim.utils.iterables import hash_obj

from production import errors
from production.errors import UsageError
from scenes import style
from scenes.frame import FRAMES, WIDE, Frame, frame_named

#: the frames a scene can be laid out for: the chapter's 16:9, a short's 9:16, a post's 1:1
LAYOUTS = tuple(FRAMES)


@dataclass
class Beat:
    """One beat: its name, its length in seconds, and when it started (seconds)."""

    name: str
    seconds: float
    start: float

    def part(self, fraction: float) -> float:
        """A run time that is ``fraction`` of this beat, in seconds."""
        return self.seconds * fraction


@dataclass(frozen=True)
class BeatRecord:
    name: str
    start: float  # seconds from the start of the scene
    end: float


T = TypeVar("T", bound=Text)

#: every text set so far in this process, by (text, size, colour): setting a text (Pango,
#: then parsing its SVG into curves) is most of what building a scene costs, and layouts
#: measure the same labels at the same sizes again and again while they fit
_SET: dict[tuple[str, int, str], Text] = {}


def lean(text: T) -> T:
    """``text`` without what Manim keeps of the SVG it was parsed from and only reads
    again for other kinds of mobject, and so Manim's own copy of the same text: each
    glyph's parsed SVG path (only OpenGL reads it) and the text's VGroup for every element
    of the SVG (only Tex and Typst look parts up by id; a short label has a hundred).
    Manim copies whatever a Transform or a fade touches, and makes each text it has set
    before as a copy; those were most of every copy, and copying most of what building a
    scene with text in it costs. What is drawn is the same."""
    kept = SVG_HASH_TO_MOB_MAP.get(hash_obj(text.hash_seed))
    for whole in (text, kept) if kept else (text,):
        whole.id_to_vgroup_dict = {}
        for glyph in whole.get_family():
            glyph.__dict__.pop("path_obj", None)
    return text


def words(text: str, size: int = WIDE.type.body, color=style.INK, **kwargs: Any) -> Text:
    """Text in the chapter's font: a copy of the one set before with the same text, size
    and colour (a copy is the same curves, three times cheaper than setting it again)."""
    if kwargs:
        return lean(Text(text, font=style.FONT, font_size=size, color=color, **kwargs))
    return measured(text, size, color).copy()


def measured(text: str, size: int, color=style.INK) -> Text:
    """The one Text of ``text`` at ``size`` in ``color`` set in this process, to copy or
    measure (scenes.lines.text_width, text_height): never to be changed or shown."""
    key = (text, size, ManimColor(color).to_hex(with_alpha=True))
    if key not in _SET:
        _SET[key] = lean(Text(text, font=style.FONT, font_size=size, color=color))
    return _SET[key]


def markup(text: str, size: int = WIDE.type.body, color=style.INK, **kwargs: Any) -> MarkupText:
    """Pango markup (bold, colour spans, sub/superscripts) in the chapter's font."""
    return lean(MarkupText(text, font=style.FONT, font_size=size, color=color, **kwargs))


def tint(text: str, color) -> str:
    """Pango markup for ``text`` in one of the palette's colours (inside a ``markup``)."""
    return f'<span foreground="{color.to_hex()}">{text}</span>'


def quoted(word: str) -> str:
    """A word named on screen, in curly quotes: '“cat”'."""
    return f"\u201c{word}\u201d"


# Glyphs whose bottom is not on the baseline: descenders, and marks that float
# above it or sit mid-height (quotes, dashes, operators, the times sign).
_OFF_BASELINE = set("gjpqyQ,;()[]{}_|/@$*^~\u201c\u201d\u2018\u2019\"'\u2013\u2014-"
                    "\u00d7\u00b7=+\u2192\u03a3")
_TAG = re.compile(r"<[^>]+>")


def drawn_characters(text: Text | MarkupText) -> str:
    """The characters a text draws, in glyph order: markup tags and spaces left out."""
    source = getattr(text, "original_text", "")
    if isinstance(text, MarkupText):
        source = html.unescape(_TAG.sub("", source))
    return "".join(source.split())


def baseline(text: Text | MarkupText) -> float:
    """The y of the text's baseline: the bottom of its first glyph that sits on the line.

    Glyphs pair with characters up to the first ligature ("ff", "fi"); a ligature
    starts with "f", which sits on the line, so the pairing holds up to the glyph
    that is used.
    """
    for glyph, char in zip(text.submobjects, drawn_characters(text)):
        if char not in _OFF_BASELINE:
            return float(glyph.get_bottom()[1])
    return float(text.get_bottom()[1])


def align_baselines(texts: list[Text | MarkupText] | VGroup, y: float | None = None) -> None:
    """Move texts up or down so their baselines sit on one line (the first's, or ``y``)."""
    items = list(texts)
    target = baseline(items[0]) if y is None else y
    for t in items:
        t.shift(UP * (target - baseline(t)))


def word_row(items: tuple[str, ...] | list[str], size: int = WIDE.type.body, color=style.INK,
             buff: float = style.GAP) -> VGroup:
    """Words side by side on one baseline, each its own Text (index the group by word)."""
    row = VGroup(*(words(w, size, color) for w in items)).arrange(RIGHT, buff=buff)
    align_baselines(row)
    return row


def stack_lines(lines: list[Mobject] | VGroup, step: float, aligned_edge=LEFT) -> VGroup:
    """Lines one under another, their baselines ``step`` scene units apart, so they
    space evenly whatever hangs below the line.

    The first line's baseline is at y = 0 and every line's ``aligned_edge`` (LEFT
    or RIGHT) at x = 0; place the group afterwards. A line may be a group whose
    first part is a text (its baseline is the line's).
    """
    group = VGroup(*lines)
    for i, line in enumerate(group):
        line.move_to(ORIGIN, aligned_edge=aligned_edge)
        text = line if isinstance(line, (Text, MarkupText)) else line[0]
        line.shift(UP * (-step * i - baseline(text)))
    return group


def row_label(text: str, color=style.MUTED, size: int = WIDE.type.label, *,
              left_of: Mobject | None = None, beside: Mobject | None = None,
              buff: float = 0.25) -> Text:
    """The name of a row, in a column at the left.

    Right-aligned ``buff`` scene units left of ``left_of`` (a row's cells), or,
    without it, left-aligned at the frame's left margin; on the baseline of the
    text ``beside``, if given (else place it vertically afterwards).
    """
    label = words(text, size, color)
    if left_of is None:
        label.set_x(-config.frame_width / 2 + style.EDGE, LEFT)
    else:
        label.next_to(left_of, LEFT, buff=buff)
    if beside is not None:
        align_baselines([beside, label])
    return label


class TextTooWide(UsageError):
    """A text in a scene that cannot fit the width it is given even at the frame's smallest
    type size (a word longer than the line, often a translation's): refused before it is
    drawn, in one line naming the scene, the beat and the text (exit status 2)."""


#: the scene whose render is running in this context: what sets its texts refuses by
#: its name one that cannot fit (scenes.lines.balanced_lines)
_BUILDING: ContextVar[ChapterScene | None] = ContextVar("building", default=None)


def building() -> ChapterScene | None:
    """The scene being rendered in this context, or None outside a scene's render."""
    return _BUILDING.get()


class ChapterScene(Scene):
    """Base of every scene in the chapter."""

    #: the ledger section this scene shows (also the --set prefix of its parameters)
    #: how it shows the labels core/ gives (features, word classes, hidden units) in the
    #: viewer's language: ``staticmethod(scenes.core_words.shown)`` in a scene that shows
    #: some (its catalogue then holds them); None: its numbers as they are
    relabel: ClassVar[Any] = None
    section: ClassVar[str] = ""
    #: the title of this scene in the chapter list (at most 49 characters)
    title: ClassVar[str] = ""
    #: the beats in order, with their default lengths in seconds
    beat_seconds: ClassVar[dict[str, float]] = {}
    #: the marks (production/narration/marks.py) this scene waits for with :meth:`at`, by beat:
    #: each must be in that beat's passage, and the passage may carry no others
    marks: ClassVar[dict[str, tuple[str, ...]]] = {}

    #: what one render decides, given by :meth:`made_for` (never set on a scene
    #: itself): its ledger section's numbers for the render's --set values, beat
    #: lengths from narration, and where to save key frames
    given_numbers: ClassVar[dict[str, Any] | None] = None
    durations: ClassVar[dict[str, float] | None] = None
    keyframe_dir: ClassVar[Path | None] = None
    #: when each mark's word starts, in seconds from its beat's start, by beat
    mark_times: ClassVar[dict[str, dict[str, float]] | None] = None
    #: what an end card credits: the voice the render spoke with ("voice"), its licence
    #: ("licence"), the tools that made it ("tools") and the course's next chapter ("next")
    given_credits: ClassVar[dict[str, str] | None] = None
    #: the name of the frame it is drawn for: "wide" (16:9, the chapter), "tall" (9:16, a
    #: short) or "square" (1:1, a post): see :meth:`frame`
    layout: ClassVar[str] = WIDE.name
    #: what this scene opens with from the scene before it in the chapter, where that scene
    #: left it ("the sentence"), or "" when it opens on an empty frame: see :meth:`hand_over`
    opens_with: ClassVar[str] = ""
    #: True for a scene that names the course's next chapter (``given_credits["next"]``):
    #: that title is then part of its cache key
    names_next: ClassVar[bool] = False

    @classmethod
    def made_for(cls, *, numbers: dict[str, Any] | None = None,
                 durations: dict[str, float] | None = None,
                 keyframe_dir: Path | None = None,
                 mark_times: dict[str, dict[str, float]] | None = None,
                 layout: str = WIDE.name,
                 credits: dict[str, str] | None = None) -> type[ChapterScene]:
        """This scene as one render draws it: a subclass carrying its ledger section's
        numbers (the chapter's ledger at the render's settings), beat lengths, mark
        times, key-frame folder, layout and credits (3b1b's ``class KeyMap(QueryMap)`` pattern),
        so two renders in one process never see each other's."""
        frame_named(layout)  # a ValueError for a frame there is not
        return type(cls.__name__, (cls,), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "given_numbers": numbers, "durations": durations, "keyframe_dir": keyframe_dir,
            "mark_times": mark_times, "layout": layout, "given_credits": credits,
        })

    # ------------------------------------------------------------- layout
    @classmethod
    def frame(cls) -> Frame:
        """The frame this scene is drawn for: its area, type scale and flow."""
        return frame_named(cls.layout)

    @staticmethod
    def frame_units(layout: str) -> tuple[float, float] | None:
        """(width, height) in scene units of the frame for ``layout``; None for Manim's
        own (wide: 8 units tall)."""
        return frame_named(layout).units()

    @classmethod
    def area(cls) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) in scene units: where the pictures may go (see
        :meth:`Frame.area`)."""
        return cls.frame().area()

    @classmethod
    def centre(cls) -> np.ndarray:
        """The middle of :meth:`area` (the frame's centre when wide)."""
        return cls.frame().centre()

    def setup(self) -> None:
        self.camera.background_color = style.BACKGROUND
        self.numbers: dict[str, Any] = copy.deepcopy(self.given_numbers or {})
        if self.relabel is not None:  # core/'s labels in the viewer's language
            self.numbers = type(self).relabel(self.numbers)
        self.beat_log: list[BeatRecord] = []
        self.layout_problems: list[str] = []
        #: each layout problem with where it is, for a page to draw it on the key frame
        self.layout_marks: list[dict[str, Any]] = []
        self.timing_problems: list[str] = []
        #: beat name -> the strings of every visible text at the end of that beat
        self.shown: dict[str, list[str]] = {}
        #: (kind, seconds from the start) of each sound cue, e.g. ("tick", 3.2)
        self.cues: list[tuple[str, float]] = []
        #: (mark, beat, when its word starts, when the scene went on) for each mark reached
        self.mark_log: list[tuple[str, str, float, float]] = []
        #: (when, the texts its animations move) for each play, in order
        self.play_log: list[tuple[float, tuple[str, ...]]] = []
        self._beat: Beat | None = None
        self._checked: str | None = None  # the beat whose checks :meth:`hand_over` ran early
        #: in a check build (nothing encoded): the first frame, as the first animation starts,
        #: and the last, as RGB images: where the cut from the scene before and the cut to
        #: the next one fall
        self.opening: Any = None
        self.closing: Any = None

    @classmethod
    def spoken(cls, numbers: dict[str, Any]) -> dict[str, str]:
        """Values the narration may name as {key}, formatted from this scene's ledger section.

        Narration is written before the scene is drawn, so a spoken number must
        come from the same ledger the pictures use, never from the text itself.
        """
        return {}

    def render(self, preview: bool = False) -> bool:
        """Manim's render, with this scene as the one being built (:func:`building`), so
        a text that cannot fit is refused by its scene and beat (:meth:`refuse_text`)."""
        token = _BUILDING.set(self)
        try:
            return super().render(preview)
        finally:
            _BUILDING.reset(token)

    def refuse_text(self, piece: str, text: str, wide: float, width: float,
                    size: int) -> TextTooWide:
        """The error for ``piece`` of ``text``: ``wide`` scene units at ``size`` (the
        frame's smallest), wider than the ``width`` it is given. It names this scene and
        the beat in progress (or, while the scene lays out before its first beat, that
        beat)."""
        beat = self._beat
        where = f"beat {beat.name!r}" if beat is not None else \
            f"laying out before beat {next(iter(self.beat_seconds), '')!r}"
        what = errors.quoted(piece) if piece == text else \
            f"{errors.quoted(piece)} (in {errors.quoted(text)})"
        return TextTooWide(f"{type(self).__name__}, {where}: the text {what} is {wide:.2f} "
                           f"units wide even at the smallest size ({size}), and its place "
                           f"{width:.2f}: shorten it or put spaces in it")

    # ------------------------------------------------------------- beats
    @classmethod
    def beat_length(cls, name: str) -> float:
        """The length of a beat in seconds: narration's if given, else the default."""
        return (cls.durations or {}).get(name, cls.beat_seconds[name])

    def beat(self, name: str) -> Beat:
        """Close the beat in progress and open the next one."""
        self._close_beat()
        if name not in self.beat_seconds:
            raise KeyError(f"{type(self).__name__} has no beat {name!r}")
        self._beat = Beat(name, self.beat_length(name), self.renderer.time)
        return self._beat

    def at(self, mark: str) -> None:
        """Wait until the voice starts the word marked ``<mark>`` in this beat's passage;
        the next animation starts with it (within half a frame)."""
        beat = self._beat
        if beat is None or mark not in self.marks.get(beat.name, ()):
            where = beat.name if beat else "no beat"
            raise KeyError(f"{type(self).__name__} waits for mark {mark!r} in {where}, "
                           f"but lists it in marks only for "
                           f"{[b for b, m in self.marks.items() if mark in m] or 'no beat'}")
        target = beat.start + (self.mark_times or {}).get(beat.name, {}).get(mark, 0.0)
        self._wait_until(target)
        late = self.renderer.time - target
        if late > 1 / config.frame_rate:
            self.timing_problems.append(f"beat {beat.name!r} reached mark <{mark}> "
                                        f"{late:.2f} s after its word")
        self.mark_log.append((mark, beat.name, target, self.renderer.time))

    def time_left(self) -> float:
        """Seconds left in this beat, in whole frames (a play of this long ends in it)."""
        beat = self._beat
        left = beat.start + beat.seconds - self.renderer.time if beat else 0.0
        return max(0.0, math.floor(left * config.frame_rate + 1e-6) / config.frame_rate)

    def time_to(self, mark: str) -> float:
        """Seconds from now until the voice starts ``mark``'s word in this beat, in whole
        frames (a play this long ends by then), and at least one frame."""
        beat = self._beat
        at = beat.start + (self.mark_times or {}).get(beat.name, {}).get(mark, 0.0) if beat \
            else self.renderer.time
        frames = math.floor((at - self.renderer.time) * config.frame_rate + 1e-6)
        return max(frames, 1) / config.frame_rate

    def _wait_until(self, moment: float) -> None:
        """Wait until ``moment`` (seconds from the scene's start), to the nearest frame,
        in one wait of a whole number of frames. Manim holds a still frame for the wait's
        length in frames rounded down, and draws a moving one (updaters on screen) for it
        rounded up: half a frame more, or less, makes the count exact. So a beat's waits
        are the same wherever the beat starts, and its plays are kept in the beat cache
        (production/beat_cache.py) as the same segments when narration before it moves it.
        A build that encodes nothing moves its clock by each wait's length: it waits the
        time left, until within half a frame."""
        if config.format == "png":  # nothing encoded: each wait moves the clock its length
            while moment - self.renderer.time > 0.5 / config.frame_rate:
                self.wait(max(moment - self.renderer.time, 1 / config.frame_rate))
            return
        frames = round((moment - self.renderer.time) * config.frame_rate)
        if frames < 1:
            return
        still = not (self.always_update_mobjects or self.updaters or any(
            m.has_time_based_updater() for m in self.get_mobject_family_members()))
        self.wait((frames + (0.5 if still else -0.5)) / config.frame_rate, frozen_frame=still)

    def play(self, *animations: Any, **kwargs: Any) -> None:
        """Manim's play, noting when it starts and which texts it moves (waits aside)."""
        if self.opening is None and config.format == "png":
            self.opening = self._frame_now()
        if not all(type(a).__name__ == "Wait" for a in animations):
            texts = tuple(m.original_text for a in animations
                          for m in getattr(getattr(a, "mobject", None), "get_family",
                                           lambda: [])()
                          if isinstance(m, (Text, MarkupText)))
            self.play_log.append((self.renderer.time, texts))
        super().play(*animations, **kwargs)

    def hand_over(self, *kept: Mobject, run_time: float = 0.6) -> None:
        """End the scene on ``kept`` alone, where they stand: the next scene opens with
        them there (its ``opens_with``), so the cut between the two cannot be seen.

        Called last in the last beat. The beat's checks, shown texts and key frame see
        the frame whole; then everything else fades out in the beat's last ``run_time``
        seconds (less if less is left), and the last frame holds ``kept`` alone.
        """
        beat, frame = self._beat, 1 / config.frame_rate
        fade = max(frame, min(run_time, self.time_left() - frame))
        self._wait_until(beat.start + beat.seconds - fade - frame)
        self._check_beat(beat.name)
        self._checked = beat.name
        keep = {id(m) for k in kept for m in k.get_family()}
        leaving: list[Mobject] = []

        def sort(mobject: Mobject) -> None:
            if id(mobject) in keep:
                return
            if any(id(m) in keep for m in mobject.get_family()):
                for sub in mobject.submobjects:
                    sort(sub)
            else:
                leaving.append(mobject)

        for top in list(self.mobjects):
            sort(top)
        # Manim takes a part out of a group on screen by breaking the group up
        if leaving:
            self.play(*(FadeOut(m) for m in leaving), run_time=fade)

    def cue(self, kind: str) -> None:
        """Mark a sound cue ("tick" or "pour") at this moment; the soundtrack plays it."""
        self.cues.append((kind, self.renderer.time))

    def _close_beat(self) -> None:
        beat = self._beat
        if beat is None:
            return
        used = self.renderer.time - beat.start
        if used > beat.seconds + 1e-6:
            self.timing_problems.append(
                f"beat {beat.name!r} ran {used:.2f} s, longer than its {beat.seconds:.2f} s"
            )
        self._wait_until(beat.start + beat.seconds)  # pad to the beat's length
        self.beat_log.append(BeatRecord(beat.name, beat.start, self.renderer.time))
        if self._checked != beat.name:
            self._check_beat(beat.name)
        self._beat = None

    def _check_beat(self, name: str) -> None:
        """The end of a beat as the viewer sees it: the layout checks, the texts shown
        and the key frame."""
        found = layout_findings(self.mobjects, f"beat {name!r}",
                                safe=self.area() if self.frame().keeps_zones else None,
                                min_size=self.frame().type.minimum)
        self.layout_problems.extend(problem for problem, _ in found)
        width, height = config.frame_width, config.frame_height
        self.layout_marks.extend(  # each box as fractions of the frame: x, y (from the top
            {"beat": name, "problem": problem,  # left), width, height
             "box": [round(x, 4) for x in ((left + width / 2) / width, (height / 2 - top) / height,
                                           (right - left) / width, (top - bottom) / height)]}
            for problem, (left, right, bottom, top) in found)
        self.shown[name] = [t.original_text for t in visible_texts(self.mobjects)]
        played = [b.name for b in self.beat_log]
        self._save_keyframe(name, len(played) + (name not in played))

    def tear_down(self) -> None:
        self._close_beat()
        if config.format == "png":
            self.closing = self._frame_now()
        played = [b.name for b in self.beat_log]
        missing = [b for b in self.beat_seconds if b not in played]
        if missing:
            self.timing_problems.append(f"beats never played: {', '.join(missing)}")
        reached = {(beat, mark) for mark, beat, _, _ in self.mark_log}
        for beat, names in self.marks.items():
            for mark in names:
                if (beat, mark) not in reached:
                    self.timing_problems.append(f"beat {beat!r} never waited for mark "
                                                f"<{mark}>")

    def _frame_now(self) -> Any:
        """The frame as it stands, drawn even while animations are skipped (an RGB image).
        Drawn from the background up: Manim keeps the last play's still mobjects as a
        picture to draw the moving ones over, and drawing them all over it again would
        draw the still ones twice (their edges heavier than in the video)."""
        renderer = self.renderer
        still, renderer.static_image = renderer.static_image, None
        try:
            renderer.update_frame(self, ignore_skipping=True)
        finally:
            renderer.static_image = still
        return renderer.camera.get_image().convert("RGB")

    def _save_keyframe(self, name: str, index: int) -> None:
        if self.keyframe_dir is None:
            return
        path = Path(self.keyframe_dir) / f"{type(self).__name__}-{index:02d}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self._frame_now().save(path)


# ----------------------------------------------------------------- layout


def visible_texts(mobjects: list[Mobject]) -> list[Text | MarkupText]:
    """Every text on screen that a viewer can see (any opacity above zero)."""
    found: list[Text | MarkupText] = []
    for top in mobjects:
        for m in top.get_family():
            if isinstance(m, (Text, MarkupText)) and m not in found:
                if m.get_fill_opacity() > 0.05 and m.width > 0:
                    found.append(m)
    return found


#: where on screen a finding is: (left, right, bottom, top) in scene units
Box = tuple[float, float, float, float]


def layout_problems(mobjects: list[Mobject], where: str,
                    safe: tuple[float, float, float, float] | None = None,
                    min_size: float = WIDE.type.minimum) -> list[str]:
    """Texts outside the frame, overlapping each other, or smaller than ``min_size``; and
    with ``safe`` (left, right, bottom, top), anything visible outside that area."""
    return [problem for problem, _ in layout_findings(mobjects, where, safe, min_size)]


def layout_findings(mobjects: list[Mobject], where: str,
                    safe: tuple[float, float, float, float] | None = None,
                    min_size: float = WIDE.type.minimum) -> list[tuple[str, Box]]:
    """:func:`layout_problems`, each with where it is: the text's box (for two texts that
    overlap, where they overlap; for a shape outside the safe area, its box)."""
    problems = []
    if safe is not None:
        problems.extend(unsafe_findings(mobjects, where, safe))
    texts = visible_texts(mobjects)
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    boxes = []
    for t in texts:
        left, right = t.get_left()[0], t.get_right()[0]
        bottom, top = t.get_bottom()[1], t.get_top()[1]
        label = f"{where}: text {t.original_text[:30]!r}" if hasattr(t, "original_text") else where
        box = (float(left), float(right), float(bottom), float(top))
        if left < -half_w or right > half_w or bottom < -half_h or top > half_h:
            problems.append((f"{label} leaves the frame", box))
        if t.font_size < min_size - 0.5:
            problems.append((f"{label} is too small ({t.font_size:.0f} < {min_size})", box))
        boxes.append((label, *box))
    slack = 0.01  # glyph boxes may touch; they may not cross
    for i, (la, l1, r1, b1, t1) in enumerate(boxes):
        for lb, l2, r2, b2, t2 in boxes[i + 1:]:
            if l1 < r2 - slack and l2 < r1 - slack and b1 < t2 - slack and b2 < t1 - slack:
                problems.append((f"{la} overlaps {lb.split(': ', 1)[-1]}",
                                 (max(l1, l2), min(r1, r2), max(b1, b2), min(t1, t2))))
    return problems


def unsafe(mobjects: list[Mobject], where: str,
           safe: tuple[float, float, float, float]) -> list[str]:
    """Every visible shape or text that reaches outside ``safe`` (left, right, bottom,
    top): in a short, under the phone app's buttons or the burned captions."""
    return [problem for problem, _ in unsafe_findings(mobjects, where, safe)]


def unsafe_findings(mobjects: list[Mobject], where: str,
                    safe: tuple[float, float, float, float]) -> list[tuple[str, Box]]:
    """:func:`unsafe`, each with the box of what reaches outside."""
    left, right, bottom, top = safe
    slack = 0.02
    texts = visible_texts(mobjects)
    glyphs = {id(g) for t in texts for g in t.get_family()}
    shapes = [m for top_level in mobjects for m in top_level.get_family()
              if id(m) not in glyphs and m.has_points() and _seen(m)]
    problems = []
    for m in [*texts, *shapes]:
        (x0, y0, _), (x1, y1, _) = m.get_critical_point(DL), m.get_critical_point(UR)
        if x0 < left - slack or x1 > right + slack or y0 < bottom - slack or y1 > top + slack:
            name = getattr(m, "original_text", None) or type(m).__name__
            problems.append((f"{where}: {str(name)[:30]!r} is outside the safe area",
                             (float(x0), float(x1), float(y0), float(y1))))
    return problems


def _seen(m: Mobject) -> bool:
    """Drawn with any fill or stroke a viewer can see."""
    fill = m.get_fill_opacity() if hasattr(m, "get_fill_opacity") else 0.0
    stroke = m.get_stroke_opacity() if hasattr(m, "get_stroke_opacity") else 0.0
    width = m.get_stroke_width() if hasattr(m, "get_stroke_width") else 0.0
    return fill > 0.05 or (stroke > 0.05 and width > 0)


__all__ = ["LAYOUTS", "Beat", "BeatRecord", "ChapterScene", "TextTooWide", "align_baselines",
           "baseline", "building", "drawn_characters", "layout_findings",
           "layout_problems", "markup", "quoted", "row_label", "stack_lines", "tint", "unsafe",
           "word_row", "words"]
