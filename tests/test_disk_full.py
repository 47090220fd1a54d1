"""A full disk is one line naming the folder and the space needed, exit status 2, and
leaves the cache and out/ holding nothing half-written.

Real full disks: each case runs render.py in a mount namespace of its own
(`unshare -m`) on a small tmpfs, so nothing outside the test is touched. The fixture
chapter at the test quality, its speech already in the cache.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest

from tests.cache_seeds import said, seed_fixture_speech, seed_scenes
from tests.conftest import TEST_QUALITY


def _namespace() -> list[str] | None:
    """The `unshare` command that gives a private mount namespace here, or None.

    In a chroot whose root is not a mount point, `unshare -m` cannot make the
    mounts private (it exits "cannot change root filesystem propagation"); there
    the namespace keeps the propagation it has, and each case unmounts its tmpfs.
    """
    if shutil.which("unshare") is None:
        return None
    for command in (["unshare", "-m"], ["unshare", "-m", "--propagation", "unchanged"]):
        probe = subprocess.run([*command, "sh", "-c",
                                "d=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs $d && "
                                "umount $d && rmdir $d"], capture_output=True)
        if probe.returncode == 0:
            return command
    return None


NAMESPACE = _namespace()
needs_mount = pytest.mark.skipif(NAMESPACE is None,
                                 reason="needs root to mount a small tmpfs in a namespace")

#: the fixture chapter's scenes at the test quality, from the (read-only) fixture project
RENDER = "render Scores Weights --chapter fixture --quality " + TEST_QUALITY


def in_small_disk(tmp_path: Path, size: str, script: str, project: Path, bundle: Path, *,
                  cached: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Run ``script`` (sh) with a fresh tmpfs of ``size`` mounted at $DISK; the cache is
    $DISK/cache, holding the fixture chapter's speech (and the session's entries of the
    scenes ``cached``), and the output folder $DISK/out. $RENDER is render.py in
    ``project``. Its output goes outside the tmpfs."""
    disk = tmp_path / "disk"
    disk.mkdir()
    seed = seed_fixture_speech(tmp_path / "seed", bundle)
    seed_scenes(seed, bundle, cached)
    command = f"{sys.executable} {project / 'render.py'} {RENDER}"
    body = (f"set -u\nmount -t tmpfs -o size={size} tmpfs {disk} || exit 97\n"
            f"trap 'umount -l {disk}' EXIT\n"
            f"export DISK={disk} EXPLAINER_CACHE={disk}/cache\n"
            f"cp -a {shlex.quote(str(seed))} $EXPLAINER_CACHE || exit 98\n"
            f"RENDER={shlex.quote(command)}\n"
            f"{script}\n")
    return subprocess.run([*NAMESPACE, "sh", "-c", body], capture_output=True,
                          text=True, timeout=900, cwd=project)


def leftovers(listing: str) -> list[str]:
    """Hidden (temporary, partial) names in a `find` listing."""
    return [line for line in listing.splitlines() if "/." in line]


@needs_mount
def test_too_little_room_is_said_before_anything_is_drawn(tmp_path, fixture_project,
                                                          fixture_bundle):
    result = in_small_disk(tmp_path, "12m", f"""
$RENDER --out $DISK/out > {tmp_path}/stdout 2> {tmp_path}/stderr
echo $? > {tmp_path}/rc
find $DISK -mindepth 1 | grep -v '/cache/voice' > {tmp_path}/listing
""", fixture_project, fixture_bundle)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rc").read_text().strip() == "2"
    lines = (tmp_path / "stderr").read_text().strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"render.py: error: no space left in {tmp_path / 'disk'}")
    assert " MB is needed" in lines[0]
    listing = (tmp_path / "listing").read_text().split()
    assert not [p for p in listing if "/scenes/" in p or "/out" in p], listing


@needs_mount
def test_a_disk_filling_up_mid_render_is_one_line_and_nothing_broken_is_kept(
        tmp_path, fixture_project, fixture_bundle):
    """The disk fills while a scene is being built (the other is cached): the render
    stops with one line, no build folder or partial file is left, and once there is room
    again the next render makes both scenes whole (nothing broken was cached)."""
    # the render and every process it started are held while the disk fills: however
    # fast the scene is drawn, the disk is full before it writes another byte
    result = in_small_disk(tmp_path, "100m", f"""
tree() {{ echo $1; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do tree $c; done; }}
$RENDER --jobs 1 --out $DISK/out > {tmp_path}/stdout 2> {tmp_path}/stderr &
pid=$!
n=0
until ls -a $DISK/cache/scenes 2>/dev/null | grep -q '^[.][0-9a-f]'; do
  sleep 0.05; n=$((n + 1)); [ $n -gt 2400 ] && break
done
echo $n > {tmp_path}/polled
held=$(tree $pid)
kill -STOP $held 2>/dev/null
dd if=/dev/zero of=$DISK/filler bs=1M 2>/dev/null
kill -CONT $held 2>/dev/null
wait $pid
echo $? > {tmp_path}/rc
find $DISK/cache/scenes $DISK/out -mindepth 1 2>/dev/null > {tmp_path}/listing
rm $DISK/filler
$RENDER --jobs 1 --out $DISK/out > {tmp_path}/again.stdout 2> {tmp_path}/again.stderr
echo $? > {tmp_path}/again.rc
for name in Scores Weights; do cp $DISK/out/scenes/$name.mp4 {tmp_path}/$name.mp4; done
""", fixture_project, fixture_bundle, cached=("Weights",))
    assert result.returncode == 0, result.stderr
    assert int((tmp_path / "polled").read_text()) <= 2400, "no scene was ever being built"
    stderr = (tmp_path / "stderr").read_text()
    assert (tmp_path / "rc").read_text().strip() == "2", stderr[-3000:]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("render.py: error: no space left in "), lines
    assert leftovers((tmp_path / "listing").read_text()) == []

    again = (tmp_path / "again.stdout").read_text()
    assert (tmp_path / "again.rc").read_text().strip() == "0", \
        (tmp_path / "again.stderr").read_text()[-3000:]
    assert said(again, "rendered") == ["Scores"], again  # the scene the full disk stopped
    seconds = {line.split(":")[0]: float(line.split(":")[1].split(" s")[0])
               for line in again.splitlines() if line.endswith(("(rendered)", "(cached)"))}
    assert sorted(seconds) == ["Scores", "Weights"], again
    for name in ("Scores", "Weights"):
        with av.open(str(tmp_path / f"{name}.mp4")) as container:
            stream = container.streams.video[0]
            frames = sum(1 for _ in container.decode(stream))
            # the whole scene, as long as the render said (it prints a tenth of a second)
            assert frames / float(stream.average_rate) == pytest.approx(seconds[name],
                                                                        abs=0.051)
