"""The chapter's concat listing holds any path: ffmpeg joins clips from a folder whose
name has a quote and a space."""

from __future__ import annotations

import subprocess
from pathlib import Path

import av
import pytest

from production.outputs import joining as chapter


def clip(path: Path, seconds: float, colour: str) -> Path:
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"color=c={colour}:s=64x48:r=10:d={seconds}", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", str(path)], check=True)
    return path


@pytest.mark.parametrize("folder", ["it's a dir", "quote'at'the end'", "back\\slash 'n' #hash"])
def test_clips_in_a_folder_with_quotes_join(tmp_path, folder):
    where = tmp_path / folder
    where.mkdir()
    clips = [clip(where / "one's.mp4", 1.0, "red"), clip(where / "two.mp4", 1.5, "blue")]
    joined = tmp_path / "joined.mp4"
    chapter.join_video(chapter.listing(clips, where / "list's.txt"), joined)
    with av.open(str(joined)) as container:
        frames = sum(1 for _ in container.decode(video=0))
    assert frames == 25


def test_clips_in_a_folder_with_line_breaks_join_under_links(tmp_path):
    """A line break cannot be written in a listing: the clips go in as links from a plain
    folder, which is gone afterwards; the clips themselves stay."""
    from production import files

    where = tmp_path / "new\nline ret\rurn 'q' {x}"
    where.mkdir()
    clips = [clip(where / "one\n.mp4", 1.0, "red"), clip(where / "two.mp4", 1.5, "blue")]
    with pytest.raises(ValueError, match="line break"):
        chapter.listing(clips, tmp_path / "list.txt")
    joined = tmp_path / "joined.mp4"
    with files.named_without(clips, chapter.LINE_BREAKS) as named:
        assert not any(chapter.LINE_BREAKS & set(str(n)) for n in named)
        chapter.join_video(chapter.listing(named, where / "list.txt"), joined)
    assert not any(n.exists() or n.is_symlink() for n in named)
    assert all(c.exists() for c in clips)
    with av.open(str(joined)) as container:
        frames = sum(1 for _ in container.decode(video=0))
    assert frames == 25
