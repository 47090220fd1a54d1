"""Piper's speech is deterministic: the same passage in the same voice, pace and settings
is the same WAV, byte for byte, with the same word timings, in any fresh cache, in any
process, whatever was spoken before, and when passages are spoken from threads at once
(Piper draws noise for its phoneme lengths and voice; it is seeded from what is spoken)."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from production import files, narration, timings
from production.narration import spoken
from production.paths import ROOT
from production.timings import Word

#: two sentences (two runs of the model), enough words for the pace to be corrected
TEXT = "Every word asks its own question. The total never changes."
OTHER = "Turned low, the light is spread almost evenly."

#: a fresh process speaks TEXT into the folder it is given, nothing spoken before
CHILD = """
import sys
from pathlib import Path
from production import narration
narration.synthesize(sys.argv[1], narration.Piper(), cache=Path(sys.argv[2]))
"""


def spoken_in(folder: Path, text: str = TEXT) -> tuple[bytes, list[Word]]:
    """The one WAV cached in ``folder`` (a fresh one, for ``text``) and its word timings."""
    said = spoken.speakable(text)
    (wav,) = folder.glob("*.wav")
    data = wav.read_bytes()
    words = timings.load(wav, said, files.sha256_once(wav))
    assert words and [w.text for w in words] == said.split()
    return data, words


def test_a_passage_is_spoken_the_same_in_fresh_caches_and_in_another_process(tmp_path):
    # the other process speaks while this one does (each loads the model: on two cores
    # at once)
    child = subprocess.Popen([sys.executable, "-c", CHILD, TEXT, str(tmp_path / "c")],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        voice = narration.Piper()
        narration.synthesize(TEXT, voice, cache=tmp_path / "a")
        narration.synthesize(OTHER, voice, cache=tmp_path / "other")  # the noise moves on
        narration.synthesize(TEXT, voice, cache=tmp_path / "b")
        _, said = child.communicate(timeout=300)
    finally:
        child.kill()
    assert child.returncode == 0, said.decode(errors="replace")

    first = spoken_in(tmp_path / "a")
    assert spoken_in(tmp_path / "b") == first
    assert spoken_in(tmp_path / "c") == first


def test_passages_spoken_from_threads_at_once_are_spoken_the_same(tmp_path):
    voice = narration.Piper()
    texts = [TEXT, OTHER]
    for k, text in enumerate(texts):
        narration.synthesize(text, voice, cache=tmp_path / f"alone{k}")
    with ThreadPoolExecutor(max_workers=2) as speakers:
        list(speakers.map(lambda k: narration.synthesize(texts[k], voice,
                                                         cache=tmp_path / f"together{k}"),
                          [1, 0]))

    for k, text in enumerate(texts):
        assert spoken_in(tmp_path / f"together{k}", text) == \
            spoken_in(tmp_path / f"alone{k}", text)


def test_piper_runs_the_same_number_of_threads_on_every_machine():
    """onnxruntime's sums depend on how many threads share them (one per core unless
    told), so the voice's session is told."""
    session = narration.Piper().load().session
    assert session.get_session_options().intra_op_num_threads == narration.PIPER_THREADS
