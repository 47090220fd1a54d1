"""`render.py publish`: a chapter bundle, a course or shorts to a video site
(docs/publishing.md).

Everything a user can get wrong is checked before anything is contacted (the folder,
the options, publish.toml, the site's limits, the token) and said in one line, exit
status 2. A dry run stops there and prints the requests; a publish holds the folders it
records into (as a render does its output folder), then sends its steps. What the site
refuses comes out as a RemoteFailure (exit status 1, see render.py).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from production import paths
from production.errors import UsageError
from production.publish import bundles, limits, metadata
from production.publish.bundles import Publication
from production.publish.dry_run import DryRun
from production.publish.progress import quiet, upload_progress
from production.publish.publisher import Publisher
from production.publish.site import Site
from production.publish.state import State
from production.publish.youtube import API_ROOT as DEFAULT_API_ROOT
from production.publish.youtube import CHUNK_SIZE, CHUNK_UNIT

KIB = 1024


@dataclass(frozen=True)
class PublishRequest:
    """What `render.py publish` was asked to do."""

    bundle: str | None = None  # a bundle, course or shorts folder; None: out/
    shorts: bool = False
    dry_run: bool = False
    token: str | None = None  # None: the log-in's default place
    api_root: str | None = None  # None: DEFAULT_API_ROOT
    chunk_kib: int | None = None  # None: the site's CHUNK_SIZE
    login: bool = False
    client_secrets: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # metadata options; None: not given
    chapter: str | None = None  # --chapter: the chapter the bundle must be
    #: --as-localization [FOLDER]: the folder the videos were published from ("": the
    #: folder above the bundle); None: the bundle goes up as videos of its own
    as_localization: str | None = None


def publish_command(request: PublishRequest) -> int:
    """Log in, or publish (or dry-run) the folder the request names."""
    if request.login or request.client_secrets:
        return log_in(request)
    if request.token:
        token_path(request.token)  # a folder given as the token: refused before any reading
    api_root = checked_root(request.api_root or DEFAULT_API_ROOT)
    chunk = CHUNK_SIZE if request.chunk_kib is None else checked_chunk(request.chunk_kib)
    given = metadata.options(request.fields)
    folder = paths.absolute(request.bundle) if request.bundle else default_folder(given)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: a file, not a folder; give a publish bundle (out/ after "
                         "`render.py render`), a course folder or a shorts folder")
    if request.chapter is not None:
        check_chapter(request.chapter, folder, shorts=request.shorts)
    if request.as_localization is not None:
        if request.shorts:
            raise UsageError("--as-localization adds a chapter's or a course's language; "
                             "publish shorts in another language as videos of their own")
        original = paths.absolute(request.as_localization) if request.as_localization \
            else folder.parent
        publication = bundles.read_localization(folder, original, given)
    else:
        publication = bundles.read(folder, shorts=request.shorts, given=given)
        check_language(publication, given)
    check(publication)
    if request.dry_run:
        return dry_run(publication, api_root)
    for held in folders(publication):
        hold(held)
    states = states_of(api_root, keep=True)
    publisher = Publisher(states, say=print, report=print, progress=upload_progress)
    steps = publisher.plan(publication)
    if steps:
        publisher.run(connect(request.token, api_root, chunk), steps)
        print(f"published: {len(steps)} request{'s' * (len(steps) != 1)} made")
    return 0


def default_folder(given: dict[str, Any]) -> Path:
    """out/, or out/CODE/ for --language CODE other than English (where `render.py render
    --language CODE` puts its bundle)."""
    language = str(given.get("language") or "en").replace("-", "_")
    return paths.out() / language if language.split("_")[0] != "en" else paths.out()


def check_language(publication: Publication, given: dict[str, Any]) -> None:
    """--language must be the language a bundle was rendered in (its manifest says)."""
    wanted = given.get("language")
    for video in publication.videos:
        said = bundles.language_of(video.folder) if not video.short else wanted
        if wanted and said and wanted.split("-")[0] != said.split("-")[0]:
            raise UsageError(f"--language {wanted}: {video.folder} holds a bundle in {said}; "
                             f"publish out/{wanted}/ (from `render.py render --language "
                             f"{wanted}`) or leave --language out")


def dry_run(publication: Publication, api_root: str) -> int:
    """Print the requests a publish would make now, and their quota; send and write
    nothing."""
    site = DryRun(api_root)
    publisher = Publisher(states_of(api_root, keep=False), say=print,
                          report=lambda line: None, progress=quiet)
    steps = publisher.plan(publication)
    if steps:
        publisher.run(site, steps)
        print(site.total())
    return 0


def states_of(api_root: str, *, keep: bool) -> Callable[[Path], State]:
    """The record of each folder, read once (``keep``: written after every step)."""
    read: dict[Path, State] = {}

    def state(folder: Path) -> State:
        if folder not in read:
            read[folder] = State(folder, api_root, keep=keep)
        return read[folder]

    return state


def check(publication: Publication) -> None:
    """Every field and file against the site's limits (limits.py), before anything is
    contacted."""
    for video in publication.videos:
        where, m = video.label, video.metadata
        limits.check_text(where, "title", m.title, characters=limits.TITLE)
        limits.check_text(where, "description", m.description, size=limits.DESCRIPTION)
        limits.check_tags(where, m.tags)
        limits.check_video(where, video.file, video.seconds, short=video.short)
        if video.thumbnail is not None:
            limits.check_thumbnail(where, video.thumbnail)
        if video.captions is not None:
            limits.check_captions(where, video.captions)
    if publication.playlist is not None:
        m = publication.playlist.metadata
        limits.check_text("the playlist", "title", m.title, characters=limits.PLAYLIST_TITLE)
        limits.check_text("the playlist", "description", m.description,
                          size=limits.DESCRIPTION)


def folders(publication: Publication) -> list[Path]:
    """The folders whose publish.json this publication writes."""
    found = [video.folder for video in publication.videos]
    if publication.playlist is not None:
        found.append(publication.playlist.folder)
    found += [local.original.folder for local in publication.localizations]
    return list(dict.fromkeys(found))


def hold(folder: Path) -> None:
    """Wait while another render or publish uses ``folder``, then hold it until the end:
    two publishes of one bundle at once would upload it twice."""
    from production import lock

    def waiting(pid: int | None) -> None:
        holder = f" (pid {pid})" if pid else ""
        print(f"render.py: waiting for another render or publish using {folder}{holder}",
              file=sys.stderr, flush=True)

    try:
        lock.hold(folder, waiting)
    except OSError as error:  # a file system that cannot lock a folder (some NFS mounts)
        print(f"render.py: warning: cannot lock {folder} ({error.strerror}); another publish "
              "of it at the same time would upload it twice", file=sys.stderr)


def check_chapter(name: str, folder: Path, *, shorts: bool) -> None:
    """A UsageError unless ``name`` is a chapter and ``folder`` is its bundle (a chapter's
    manifest names it; a course holds every chapter, so --chapter does not apply)."""
    from production.chapters import discover, pick

    pick(discover("scenes", paths.ROOT / "scenes"), name)  # one line for an unknown one
    if shorts:
        return  # shorts carry no chapter name: the folder given is the one published
    if (folder / bundles.COURSE).is_file():
        raise UsageError(f"--chapter {name}: {folder} is a course, which publishes every "
                         "chapter; leave --chapter out, or give that chapter's bundle")
    found = bundles.read_manifest(folder).get("chapter") or ""
    if found != name:
        raise UsageError(f"--chapter {name}: {folder} holds the bundle of chapter "
                         f"{found!r}; render `--chapter {name} --out DIR` and publish DIR")


# ----------------------------------------------------------------- the site, logging in


def checked_root(root: str) -> str:
    """``root`` as the API root every request goes under, ending in "/"."""
    parts = urlsplit(root)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment:
        raise UsageError(f"--api-root {without_credentials(root)!r}: give an http or https "
                         f"URL, such as {DEFAULT_API_ROOT}")
    if "@" in parts.netloc:
        raise UsageError(f"--api-root {without_credentials(root)!r}: a user name or password "
                         "in it is not taken (the site is signed in to with the token, "
                         "--token); give the URL without them")
    return root if root.endswith("/") else root + "/"


def without_credentials(url: str) -> str:
    """``url`` with any user name and password taken out: what may be printed or kept."""
    return CREDENTIALS.sub(r"\1", url)


#: the user name and password of a URL ("https://user:secret@host/..."), anywhere in text
CREDENTIALS = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]*@")


def checked_chunk(kib: int) -> int:
    """The upload chunk in bytes: ``kib`` KiB, a positive multiple of the resumable
    protocol's 256 KiB."""
    if kib <= 0 or kib * KIB % CHUNK_UNIT:
        raise UsageError(f"--chunk-kib {kib}: an upload chunk is a multiple of "
                         f"{CHUNK_UNIT // KIB} KiB, such as {CHUNK_UNIT // KIB} or "
                         f"{CHUNK_SIZE // KIB}")
    return kib * KIB


def token_path(token: str | None) -> Path:
    """--token FILE, else where a log-in writes the token by default; a UsageError for
    a folder."""
    if token:
        path = paths.absolute(token)
        if path.is_dir():
            raise UsageError(f"--token {path}: a folder, not a file; give the token's file "
                             "(a log-in writes it)")
        return path
    from production.publish import auth

    return auth.default_token_path()


def connect(token: str | None, api_root: str, chunk: int) -> Site:
    """The site, signed in with the token a log-in wrote."""
    from production.publish import auth
    from production.publish.youtube import YouTube

    path = token_path(token)
    if not path.is_file():
        raise UsageError(f"no token at {path}: log in once with `{auth.LOG_IN}`"
                         + ("" if token else " (or give --token FILE)"))

    return YouTube(auth.load(path), api_root=api_root, chunk_size=chunk)


def log_in(request: PublishRequest) -> int:
    """`--login --client-secrets FILE`: the installed-app sign-in; the token is written
    where --token says (by default under ~/.config/attention-explainer/)."""
    if not request.login:
        raise UsageError("--client-secrets goes with --login, to log in")
    if request.bundle or request.dry_run or request.shorts:
        raise UsageError("--login only logs in; publish with a second command after it")
    if not request.client_secrets:
        raise UsageError("--login needs --client-secrets FILE: the OAuth client of a "
                         "desktop app, as the Google Cloud console downloads it")
    secrets = paths.absolute(request.client_secrets)
    if secrets.is_dir():
        raise UsageError(f"--client-secrets {secrets}: a folder, not a file; give the OAuth "
                         "client's JSON file")
    if not secrets.is_file():
        raise UsageError(f"--client-secrets {request.client_secrets}: no such file")
    from production.publish import auth

    path = token_path(request.token)
    auth.login(secrets, path)
    print(f"logged in: the token is in {path}, readable by you alone; publish with "
          "`render.py publish`")
    return 0
