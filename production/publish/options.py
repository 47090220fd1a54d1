"""`render.py publish`'s options, and the request they make of command.py.

Beside command.py rather than in it: render.py builds its parser from this module for
every command, and command.py loads the site's client (Google's API libraries, half a
second) that only a publish needs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from production.publish.command import PublishRequest

HELP = "upload a bundle, a course or shorts to YouTube (never twice)"
DESCRIPTION = (
    "Upload the bundle in BUNDLE (default out/) to YouTube: the chapter with its metadata, "
    "thumbnail and captions; a course folder's chapters in course order, then a playlist of "
    "them; or, with --shorts, each short. publish.json in each folder records what went up, "
    "so a second run sends only what is new or changed and resumes an upload a killed run "
    "left. Log in once first with --login --client-secrets FILE. Fields come from the "
    "bundle, over them a publish.toml in its folder, over that the options below. See "
    "docs/publishing.md.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """What `render.py publish` takes: what to publish, where, the metadata, the log-in."""
    from production.options import whole_number

    parser.add_argument("bundle", nargs="?", metavar="BUNDLE",
                        help="a publish bundle (manifest.json, chapter.mp4, ...), a course "
                             "folder (course.json) or, with --shorts, a bundle with shorts/ or "
                             "a shorts folder (default: out/)")
    what = parser.add_argument_group("what and where")
    what.add_argument("--to", choices=("youtube",), default="youtube",
                      help="the video site (default: youtube)")
    what.add_argument("--chapter", metavar="NAME",
                      help="the chapter whose bundle BUNDLE is (checked against its manifest; "
                           "out/ holds the chapter rendered last)")
    what.add_argument("--shorts", action="store_true",
                      help="publish each short of BUNDLE/shorts/ (from `render.py shorts`) as "
                           "its own video, its title ending in #Shorts, with its captions")
    what.add_argument("--dry-run", action="store_true",
                      help="print every request it would make (method, URL, body, file and "
                           "size) and the quota it costs; contacts nothing, needs no token")
    what.add_argument("--api-root", metavar="URL",
                      help="where every request goes, uploads included (default: YouTube's, "
                           "https://www.googleapis.com/; another for an API-compatible "
                           "host or a stand-in)")
    what.add_argument("--chunk-kib", type=whole_number(), metavar="N",
                      help="upload the video in chunks of N KiB, a multiple of 256 (default "
                           "8192); a broken upload resumes from the last chunk the site has")
    fields = parser.add_argument_group(
        "metadata (each over publish.toml's, over the bundle's)")
    fields.add_argument("--privacy", choices=("private", "unlisted", "public"),
                        help="who can see the videos and the playlist (default: private)")
    fields.add_argument("--title", help="the video's title (a course's: the playlist's); at "
                                        "most 100 characters, no < or >")
    fields.add_argument("--description",
                        help="the whole description (a course's: the playlist's); default: "
                             "the chapter's summary, its chapter list and the credits")
    fields.add_argument("--tags", metavar="TAG,TAG,...",
                        help="the tags, comma-separated (default: the chapter's); at most 500 "
                             "characters in all")
    fields.add_argument("--category", metavar="ID",
                        help="the site's category id (default: 27, Education)")
    fields.add_argument("--language", metavar="TAG",
                        help="the language of the title, the speech and the captions, as "
                             "BCP-47 (default: the bundle's, en unless rendered with "
                             "--language); BUNDLE defaults to out/CODE/ for another language")
    what.add_argument("--as-localization", nargs="?", const="", metavar="FOLDER",
                      help="add BUNDLE, rendered in another language, to the videos already "
                           "published from FOLDER (the same chapter or course in its first "
                           "language; default: the folder above BUNDLE) as a localization: "
                           "its title and description, and its captions as a track"),
    fields.add_argument("--captions-name", metavar="NAME",
                        help="the caption track's name in the player (default: English)")
    fields.add_argument("--made-for-kids", action="store_true", default=None,
                        help="declare the videos made for children (default: not)")
    account = parser.add_argument_group("account")
    account.add_argument("--login", action="store_true",
                         help="log in once (Google's consent page, in a browser) and write "
                              "the token; nothing is published")
    account.add_argument("--client-secrets", metavar="FILE",
                         help="with --login: the OAuth client JSON of a desktop app, from the "
                              "Google Cloud console")
    account.add_argument("--token", metavar="FILE",
                         help="the token to publish with, or for --login to write (default: "
                              "in ~/.config/attention-explainer/)")


def request(args: argparse.Namespace) -> PublishRequest:
    """What a publish command asks for, from its parsed options."""
    from production.publish.command import PublishRequest
    from production.publish.metadata import FIELDS

    return PublishRequest(args.bundle, shorts=args.shorts, dry_run=args.dry_run,
                          token=args.token, api_root=args.api_root, chunk_kib=args.chunk_kib,
                          login=args.login, client_secrets=args.client_secrets,
                          fields={name: getattr(args, name) for name in FIELDS},
                          chapter=args.chapter, as_localization=args.as_localization)


def handle(args: argparse.Namespace) -> int:
    """`render.py publish`, from its parsed options: log in, publish or dry-run; the exit
    status."""
    from production.publish.command import publish_command

    return publish_command(request(args))
