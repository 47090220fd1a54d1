"""One render at a time into an output folder: an advisory lock on the folder itself.

The lock is ``flock(2)`` on a descriptor of the folder, so nothing is added to the
folder, and the kernel releases the lock when the render ends, however it ends
(a killed render leaves no stale lock behind). A second render into the same
folder waits for the first; renders into different folders never wait.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

#: the folders this process holds, by real path -> the folder's descriptor
_held: dict[str, int] = {}


def hold(folder: Path, waiting: Callable[[int | None], None] | None = None) -> bool:
    """Lock ``folder`` (it must exist) for this process until :func:`release_all`.

    Returns True when another process held it and this one waited. ``waiting`` is
    called once, before waiting, with the holder's pid (None when it cannot be told).
    Raises OSError where the file system cannot lock a folder.
    """
    key = os.path.realpath(folder)
    if key in _held:
        return False
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            waited = False
        except BlockingIOError:
            if waiting is not None:
                waiting(holder(fd))
            fcntl.flock(fd, fcntl.LOCK_EX)
            waited = True
    except BaseException:
        os.close(fd)
        raise
    _held[key] = fd
    return waited


def holder(fd: int) -> int | None:
    """The pid holding a flock on the file behind ``fd``, from /proc/locks (Linux)."""
    st = os.fstat(fd)
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; waiters are marked "->"
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == inode:
            pid = int(fields[4])
            return pid if pid > 0 else None
    return None


def release_all() -> None:
    """Unlock every folder this process holds."""
    for fd in _held.values():
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    _held.clear()


def forget() -> None:
    """In a forked worker: close the inherited descriptors without unlocking (the lock
    belongs to the parent, and lasts while the parent holds its own descriptor)."""
    for fd in _held.values():
        os.close(fd)
    _held.clear()
