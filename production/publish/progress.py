"""How far a video's upload has got, on stderr: a bar (rich) on a terminal, else a plain
line at every tenth of the file, so a log shows progress without a line per chunk."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

Report = Callable[[int, int], None]  # (bytes sent, bytes in all)


@contextmanager
def upload_progress(label: str, size: int, stream: TextIO | None = None) -> Iterator[Report]:
    """A progress(sent, total) for uploading ``label`` (``size`` bytes), for the block."""
    stream = stream or sys.stderr
    if stream.isatty():
        with _bar(label, size, stream) as report:
            yield report
    else:
        yield _lines(label, stream)


@contextmanager
def _bar(label: str, size: int, stream: TextIO) -> Iterator[Report]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    with Progress(TextColumn("uploading {task.description}"), BarColumn(), DownloadColumn(),
                  TransferSpeedColumn(), TimeRemainingColumn(),
                  console=Console(file=stream), transient=True) as bar:
        task = bar.add_task(label, total=size)
        yield lambda sent, total: bar.update(task, completed=sent, total=total)


def _lines(label: str, stream: TextIO) -> Report:
    """Prints "uploading LABEL: 30% (3,145,728 of 10,485,760 bytes)" as each tenth is
    passed, and at the end."""
    shown = [-1]

    def report(sent: int, total: int) -> None:
        tenth = sent * 10 // total if total else 10
        if tenth > shown[0]:
            shown[0] = tenth
            print(f"uploading {label}: {sent * 100 // max(total, 1)}% ({sent:,} of {total:,} "
                  "bytes)", file=stream, flush=True)

    return report


@contextmanager
def quiet(label: str, size: int) -> Iterator[Report]:
    """No progress shown (a dry run uploads nothing)."""
    yield lambda sent, total: None
