"""The steps of a publish: what to send, decided from the files and publish.json, then
sent one step at a time through a Site, the record written after each.

The same steps run against the real site and the dry run (production/publish/dry_run.py),
so a dry run prints exactly the requests a publish would make. A step is planned when:

* the video file is new, or its SHA-256 differs from the one published (a changed file is
  a new video: the old id is kept in the record, and the output says so); an upload a
  killed run left is resumed, its session taken from the record;
* its body (title, description, tags, category, languages, privacy) differs from the one
  last sent: videos.update;
* its thumbnail or captions file is new or changed (or the video is new): thumbnails.set,
  captions.insert or, for a track already there, captions.update;
* a course's playlist is missing, its body changed, or a chapter's video is not in it.

A step the site refuses stops the publish: the failure's line says what was done and
what is left (the next run does only that) and what to do.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import files
from production.errors import UsageError
from production.publish.bundles import Localization, Playlist, Publication, Video
from production.publish.metadata import playlist_body, video_body
from production.publish.site import AuthFailure, Body, QuotaExceeded, RemoteFailure, Site
from production.publish.state import Record, State

#: a context for one upload: given its label and size, it yields progress(sent, total)
Progress = Callable[[str, int], AbstractContextManager[Callable[[int, int], None]]]


@dataclass(frozen=True)
class Step:
    """One request, and what it records: ``action(site, *args)``."""

    label: str  # what it sends, for messages: "decoder/chapter.mp4", "the playlist"
    action: Callable[..., None]
    args: tuple[Any, ...]


class Publisher:
    """Plans a publication's steps, then sends them through a site; ``states`` gives the
    record of a folder, ``say`` prints a note (a changed file, nothing to do), ``report``
    a step done, ``progress`` shows an upload under way."""

    def __init__(self, states: Callable[[Path], State], *, say: Callable[[str], None],
                 report: Callable[[str], None], progress: Progress) -> None:
        self.states = states
        self.say, self.report, self.progress = say, report, progress
        self.uploading: set[Path] = set()  # the videos a planned step uploads anew

    # ------------------------------------------------------------- planning

    def plan(self, publication: Publication) -> list[Step]:
        """The steps that send what is new or changed since the last publish, in order
        (none, and a note saying so, when nothing is)."""
        steps = [step for video in publication.videos for step in self.video_steps(video)]
        if publication.playlist is not None:
            steps += self.playlist_steps(publication.playlist)
        steps += [step for local in publication.localizations
                  for step in self.localization_steps(local)]
        if not steps:
            self.say("nothing changed since the last publish: no request made")
        return steps

    def video_steps(self, video: Video) -> list[Step]:
        state = self.states(video.folder)
        record = state.video(video.name)
        sha = files.sha256(video.file)
        body = video_body(video.metadata)
        new = record.get("sha256") != sha or "video_id" not in record
        if record.get("localizations") and not new:  # added by a publish --as-localization
            body["localizations"] = record["localizations"]
        steps = []
        if new:
            if "video_id" in record:
                self.say(f"{video.label} changed since it was published as video "
                         f"{record['video_id']}: it goes up as a new video (the old one stays "
                         "on the site; delete it there if it should go)")
            self.uploading.add(video.file)
            steps.append(Step(video.label, self.upload, (video, state, sha, body)))
            if self.opened_with(record, sha, body) != body:  # a resumed upload's old body
                steps.append(Step(f"{video.label} metadata", self.update, (video, state, body)))
        elif record.get("body") != body:
            steps.append(Step(f"{video.label} metadata", self.update, (video, state, body)))
        if video.thumbnail is not None:
            thumb = files.sha256(video.thumbnail)
            if new or record.get("thumbnail", {}).get("sha256") != thumb:
                steps.append(Step(video.part(video.thumbnail), self.thumbnail,
                                  (video, state, thumb)))
        if video.captions is not None:
            steps += self.captions_steps(video, state, record, new)
        return steps

    def captions_steps(self, video: Video, state: State, record: Record,
                       new: bool) -> list[Step]:
        assert video.captions is not None
        track = {"file": video.captions.name, "sha256": files.sha256(video.captions),
                 "language": video.metadata.language, "name": video.metadata.captions_name}
        had = None if new else record.get("captions")
        if had and all(had.get(k) == v for k, v in track.items()):
            return []
        # captions.update replaces a track's file; another language or name is a new track
        same_track = bool(had) and all(had.get(k) == track[k] for k in ("language", "name"))
        return [Step(video.part(video.captions), self.captions,
                     (video, state, track, same_track))]

    def localization_steps(self, local: Localization) -> list[Step]:
        """A language's title and description on a video published before (videos.update
        with its localizations), and its captions as a track of that language."""
        original = local.original
        record = self.states(original.folder).video(original.name)
        if "video_id" not in record or record.get("sha256") != files.sha256(original.file):
            raise UsageError(f"--as-localization: {original.label} is not published as it "
                             f"is now (its publish.json has no video of these bytes); "
                             f"publish {original.folder} first")
        state = self.states(original.folder)
        steps = []
        wanted = {"title": local.title, "description": local.description}
        if (record.get("localizations") or {}).get(local.language) != wanted:
            steps.append(Step(f"{local.label} (title, description)", self.localize,
                              (local, state, wanted)))
        if local.captions is not None:
            track = {"file": local.captions.name, "sha256": files.sha256(local.captions),
                     "language": local.language, "name": local.captions_name}
            had = (record.get("localized_captions") or {}).get(local.language)
            if not had or any(had.get(k) != v for k, v in track.items()):
                steps.append(Step(f"{local.label} (captions)", self.localized_captions,
                                  (local, state, track)))
        return steps

    def playlist_steps(self, playlist: Playlist) -> list[Step]:
        state = self.states(playlist.folder)
        record = state.playlist()
        body = playlist_body(playlist.metadata)
        steps = []
        if "id" not in record:
            steps.append(Step("the playlist", self.insert_playlist, (state, body)))
        elif record.get("body") != body:
            steps.append(Step("the playlist's metadata", self.update_playlist, (state, body)))
        listed = {item["video_id"] for item in record.get("items", [])}
        for index, video in enumerate(playlist.videos):
            known = self.states(video.folder).video(video.name).get("video_id")
            if video.file in self.uploading or known not in listed:
                steps.append(Step(f"the playlist's item {index + 1} ({video.label})",
                                  self.add_item, (playlist, state, index)))
        return steps

    @staticmethod
    def opened_with(record: Record, sha: str, body: Body) -> Body:
        """The body an upload of the file ``sha`` goes up with: a session's a killed run
        opened (it carried its body then), else ``body``."""
        session = record.get("session") or {}
        return session["body"] if session.get("sha256") == sha else body

    # ------------------------------------------------------------- the steps

    def upload(self, site: Site, video: Video, state: State, sha: str, body: Body) -> None:
        """videos.insert, resuming the session a killed run left for these same bytes."""
        record = state.video(video.name)
        session = record.get("session") or {}
        resumed = session.get("uri") if session.get("sha256") == sha else None
        opened = self.opened_with(record, sha, body)

        def keep_session(uri: str | None) -> None:
            # None (the upload finished) is left for the id to replace, in one write: a
            # run killed in between resumes the finished session and gets the id from it
            if uri is not None:
                record["session"] = {"uri": uri, "sha256": sha, "body": opened}
                state.save()

        size = video.file.stat().st_size
        with self.progress(video.label, size) as progress:
            video_id = site.insert_video(video.file, opened, session=resumed,
                                              keep_session=keep_session, progress=progress)
        if "video_id" in record:
            record.setdefault("replaced", []).append(
                {"video_id": record["video_id"], "sha256": record["sha256"]})
        for gone in ("session", "thumbnail", "captions", "localizations",
                     "localized_captions"):  # those were the old video's
            record.pop(gone, None)
        record.update(sha256=sha, bytes=size, video_id=video_id, body=opened)
        state.save()
        self.report(f"{video.label}: uploaded as video {video_id} "
                    f"({opened['status']['privacyStatus']})")

    def update(self, site: Site, video: Video, state: State, body: Body) -> None:
        """videos.update with the body as it is now."""
        record = state.video(video.name)
        site.update_video(record["video_id"], body)
        changed = changed_fields(record.get("body") or {}, body)
        record["body"] = body
        state.save()
        self.report(f"{video.label}: video {record['video_id']} updated ({changed})")

    def thumbnail(self, site: Site, video: Video, state: State, sha: str) -> None:
        assert video.thumbnail is not None
        record = state.video(video.name)
        site.set_thumbnail(record["video_id"], video.thumbnail)
        record["thumbnail"] = {"file": video.thumbnail.name, "sha256": sha}
        state.save()
        self.report(f"{video.part(video.thumbnail)}: set on video {record['video_id']}")

    def captions(self, site: Site, video: Video, state: State, track: Record,
                 same_track: bool) -> None:
        """captions.update of the track this video has in that language and name, else
        captions.insert."""
        assert video.captions is not None
        record = state.video(video.name)
        video_id, had = record["video_id"], record.get("captions")
        if had and same_track:
            site.update_captions(had["id"], video_id, video.captions,
                                      language=track["language"], name=track["name"])
            caption_id, done = had["id"], "updated"
        else:
            caption_id = site.insert_captions(video_id, video.captions,
                                                   language=track["language"],
                                                   name=track["name"])
            done = "added"
        record["captions"] = {**track, "id": caption_id}
        state.save()
        self.report(f"{video.part(video.captions)}: captions {caption_id} {done} on video "
                    f"{video_id}")

    def localize(self, site: Site, local: Localization, state: State, wanted: Record
                 ) -> None:
        """videos.update of the original's body as last sent, with this language among
        its localizations."""
        record = state.video(local.original.name)
        localizations = {**(record.get("localizations") or {}), local.language: wanted}
        body = {**record["body"], "localizations": localizations}
        site.update_video(record["video_id"], body)
        record.update(localizations=localizations, body=body)
        state.save()
        self.report(f"{local.label}: video {record['video_id']} localized in "
                    f"{local.language}")

    def localized_captions(self, site: Site, local: Localization, state: State,
                           track: Record) -> None:
        """The language's captions on the original video: captions.update of its track
        in that language, else captions.insert."""
        assert local.captions is not None
        record = state.video(local.original.name)
        video_id = record["video_id"]
        tracks = record.setdefault("localized_captions", {})
        had = tracks.get(local.language)
        if had and had.get("name") == track["name"]:
            site.update_captions(had["id"], video_id, local.captions,
                                 language=track["language"], name=track["name"])
            caption_id, done = had["id"], "updated"
        else:
            caption_id = site.insert_captions(video_id, local.captions,
                                              language=track["language"], name=track["name"])
            done = "added"
        tracks[local.language] = {**track, "id": caption_id}
        state.save()
        self.report(f"{local.label}: captions {caption_id} {done} on video {video_id}")

    def insert_playlist(self, site: Site, state: State, body: Body) -> None:
        record = state.playlist()
        record.update(id=site.insert_playlist(body), body=body, items=[])
        state.save()
        self.report(f"playlist {record['id']} made ({body['status']['privacyStatus']})")

    def update_playlist(self, site: Site, state: State, body: Body) -> None:
        record = state.playlist()
        site.update_playlist(record["id"], body)
        changed = changed_fields(record.get("body") or {}, body)
        record["body"] = body
        state.save()
        self.report(f"playlist {record['id']} updated ({changed})")

    def add_item(self, site: Site, playlist: Playlist, state: State, index: int) -> None:
        """playlistItems.insert of chapter ``index``'s video, right after the item of the
        chapter before it (an older video a changed chapter replaced keeps its place)."""
        record = state.playlist()
        items = record.setdefault("items", [])
        ids = [self.states(v.folder).video(v.name)["video_id"] for v in playlist.videos]
        position = max((at + 1 for at, item in enumerate(items)
                        if item["video_id"] in ids[:index]), default=0)
        item_id = site.insert_playlist_item(record["id"], ids[index], position)
        items.insert(position, {"video_id": ids[index], "id": item_id})
        state.save()
        self.report(f"playlist {record['id']}: video {ids[index]} at position {position + 1}")

    # ------------------------------------------------------------- running

    def run(self, site: Site, steps: list[Step]) -> None:
        """Send ``steps`` through ``site``, in order. A RemoteFailure comes out as one
        line (of the same kind): what the site said, what was done, what is left and what
        to do."""
        done: list[str] = []
        for step in steps:
            try:
                step.action(site, *step.args)
            except RemoteFailure as failure:
                left = [s.label for s in steps[len(done):]]
                raise type(failure)(f"{failure}; done {len(done)} of {len(steps)} requests"
                                    f"{_listed(done)}; left: {', '.join(left)}; "
                                    f"{next_move(failure)}") from None
            done.append(step.label)


def _listed(labels: list[str]) -> str:
    return f" ({', '.join(labels)})" if labels else ""


def next_move(failure: RemoteFailure) -> str:
    """What to do after ``failure`` (which says why; an AuthFailure how to log in)."""
    if isinstance(failure, QuotaExceeded):
        return "run publish again after the quota resets: it sends only what is left"
    if isinstance(failure, AuthFailure):
        return "once logged in again, run publish again: it sends only what is left"
    return "run publish again to go on from there"


def changed_fields(before: Body, after: Body) -> str:
    """The fields that differ between two bodies, "title, tags" (by the API's names)."""
    names = [key for part in sorted({*before, *after})
             for key in sorted({*before.get(part, {}), *after.get(part, {})})
             if before.get(part, {}).get(key) != after.get(part, {}).get(key)]
    return ", ".join(names) or "nothing"

