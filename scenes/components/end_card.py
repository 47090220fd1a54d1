"""What every chapter's end card draws: what the chapter taught, a few short lines one
under another, then its credits (who spoke it, under what licence, what made it), each
set as large as the frame's room allows and centred in it.

A chapter's end card gives its own lines and the credits its render was given
(``ChapterScene.given_credits``); the choreography is the same for every chapter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manim import DOWN, UP, FadeIn, FadeOut, LaggedStart, VGroup

from production.language import _
from scenes import style
from scenes.frame import Frame
from scenes.lines import largest_that_fits, wrapped


class LearnedLines(VGroup):
    """``lines`` one under another at ``size``, each wrapped (balanced, centred) to
    ``width`` scene units, the last in ``accent`` (the idea the chapter ends on); with
    ``following``, the course's next chapter under them at ``small`` size, muted."""

    def __init__(self, lines: Sequence[str], size: int, width: float, *,
                 accent=style.WEIGHT, following: str = "", small: int = 0) -> None:
        super().__init__(*(wrapped(line, size, width,
                                   accent if i == len(lines) - 1 else style.INK)
                           for i, line in enumerate(lines)))
        self.following = VGroup()
        if following:
            self.following = wrapped(_("next: {title}").format(title=following),
                                     small or size, width, style.MUTED)
            self.add(self.following)
        self.arrange(DOWN, buff=size / 60)
        if following:
            self.following.shift(DOWN * size / 60)

    @classmethod
    def for_frame(cls, lines: Sequence[str], frame: Frame, *, following: str = "",
                  **kwargs) -> LearnedLines:
        """At the largest of the frame's title, heading and body sizes that fits its
        room; the next chapter (``following``) at the frame's label size."""
        return largest_that_fits(
            lambda size: cls(lines, size, 0.95 * frame.room()[0], following=following,
                             small=frame.type.label, **kwargs),
            (frame.type.title, frame.type.heading, frame.type.body), frame.room())

    def get_lines(self) -> VGroup:
        """The lines learned (not the next chapter)."""
        return VGroup(*(m for m in self.submobjects if m is not self.following))

    def get_following(self) -> VGroup:
        """The next chapter's line (empty without one)."""
        return self.following

    def make_entrance_animation(self, lag_ratio: float = 0.45) -> LaggedStart:
        """One line after another, each rising a little into place, then the next
        chapter."""
        return LaggedStart(*(FadeIn(line, shift=UP * 0.2) for line in self),
                           lag_ratio=lag_ratio)

    def make_exit_animation(self) -> FadeOut:
        return FadeOut(self, shift=UP * 0.2)


class CreditsBlock(VGroup):
    """The credits at ``size``, a muted heading over each part: "narrated by" the voice
    and its licence (if it has one), then "made with" the tools, in lines that fit
    ``width`` scene units. ``credits`` holds "voice", "licence" and "tools"."""

    def __init__(self, credits: Mapping[str, str], size: int, width: float) -> None:
        super().__init__()
        parts = [(_("narrated by"), [credits["voice"],
                                     *([credits["licence"]] if credits["licence"] else [])]),
                 (_("made with"), [credits["tools"]])]
        for heading, texts in parts:
            part = VGroup(wrapped(heading, size, width, style.MUTED),
                          *(wrapped(text, size, width) for text in texts))
            self.add(part.arrange(DOWN, buff=size / 120))
        self.arrange(DOWN, buff=size / 50)

    @classmethod
    def for_frame(cls, credits: Mapping[str, str] | None, frame: Frame, *,
                  owner: str = "An end card") -> CreditsBlock:
        """At the largest of the frame's body, label and minimum sizes that fits its
        room. Without ``credits`` a ValueError naming ``owner`` (the scene) says how a
        render gives them."""
        if not credits:
            raise ValueError(f"{owner} needs its credits: render it through "
                             "production.drawing.construct_scene(credits=...)")
        return largest_that_fits(lambda size: cls(credits, size, frame.room()[0]),
                                 (frame.type.body, frame.type.label, frame.type.minimum),
                                 frame.room())

    def get_parts(self) -> VGroup:
        """The voice's part, then the tools'."""
        return VGroup(*self.submobjects)

    def make_entrance_animation(self, lag_ratio: float = 0.3) -> LaggedStart:
        """One part after the other, each rising a little into place."""
        return LaggedStart(*(FadeIn(part, shift=UP * 0.1) for part in self),
                           lag_ratio=lag_ratio)


def end_card_parts(scene, learned: Sequence[str]) -> tuple[LearnedLines, CreditsBlock]:
    """An end card scene's two pictures, laid out for its frame and centred in its area:
    ``learned`` with the course's next chapter under them, and the credits its render
    gave it (``scene.given_credits``)."""
    frame, given = scene.frame(), scene.given_credits
    lines = LearnedLines.for_frame(learned, frame, following=(given or {}).get("next", ""))
    credits = CreditsBlock.for_frame(given, frame, owner=type(scene).__name__)
    return lines.move_to(scene.centre()), credits.move_to(scene.centre())


__all__ = ["CreditsBlock", "LearnedLines", "end_card_parts"]
