"""Logging in to YouTube once, and the token that the log-in leaves.

``render.py publish --login --client-secrets FILE`` runs Google's installed-app OAuth
flow: a browser shows Google's consent page, which sends the browser back to a one-off
server on this machine (127.0.0.1) with a code, and the code is exchanged for a token.
The token is kept as google-auth's authorized-user JSON (the refresh token, the client
that may use it, its ``token_uri``), readable by its owner only (mode 0600, in a folder
of mode 0700). The token is never printed or logged: messages name its file.
"""

from __future__ import annotations

import json
import os
import webbrowser
from pathlib import Path

import requests
from google.auth.exceptions import RefreshError, TransportError
from google.auth.transport.requests import Request
from google.oauth2.credentials import Credentials
from google_auth_oauthlib.flow import InstalledAppFlow
from oauthlib.oauth2.rfc6749.errors import OAuth2Error

from production import files
from production.errors import UsageError
from production.publish.site import AuthFailure, RemoteFailure

#: the one scope a publish needs: videos.insert and update, thumbnails.set, captions
#: insert and update, playlists and their items all list it in the discovery document
SCOPES = ("https://www.googleapis.com/auth/youtube.force-ssl",)
#: how a user logs in, said wherever a token is missing or refused
LOG_IN = "render.py publish --login --client-secrets FILE"
#: what the log-in prints, the consent page's address in place of {url}
PROMPT = ("Open this address in a browser and allow access to your YouTube channel "
          "(the browser then comes back here):\n{url}")
#: what the browser shows once the code has reached this machine
DONE = "Logged in: the publisher may now upload to your channel. You can close this window."


def default_token_path() -> Path:
    """Where the token is kept unless ``--token`` says otherwise:
    ``$XDG_CONFIG_HOME`` (or ~/.config) / attention-explainer / youtube-token.json."""
    config = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(config) if os.path.isabs(config) else Path.home() / ".config"
    return base / "attention-explainer" / "youtube-token.json"


def login(client_secrets: Path, token_path: Path, *, open_browser: bool = True) -> Path:
    """Run the installed-app flow for the OAuth client in ``client_secrets`` (the JSON
    the Google Cloud console gives for a desktop app) and keep the token at
    ``token_path``; that path. The consent page's address is printed (and opened in a
    browser when ``open_browser`` and this machine has one); this waits until the
    browser comes back."""
    try:
        flow = InstalledAppFlow.from_client_secrets_file(str(client_secrets), scopes=SCOPES)
    except (OSError, ValueError, KeyError) as error:
        raise UsageError(f"cannot read the OAuth client secrets {client_secrets} "
                         f"({_reason(error)}): give the JSON file that the Google Cloud "
                         "console offers for a desktop app's OAuth client") from None
    try:
        credentials = flow.run_local_server(
            host="127.0.0.1", port=0, open_browser=open_browser and _has_browser(),
            authorization_prompt_message=PROMPT, success_message=DONE,
            prompt="consent")  # so Google gives a refresh token even to a second log-in
    except OAuth2Error as error:
        raise AuthFailure(f"the log-in failed ({error.error}"
                          f"{': ' + error.description if error.description else ''}); "
                          f"try again with: {LOG_IN}") from None
    except Warning as error:  # oauthlib: fewer scopes were granted than asked for
        raise AuthFailure(f"the log-in did not allow managing your YouTube videos "
                          f"({_reason(error)}); log in again and allow it: {LOG_IN}") from None
    except requests.RequestException as error:
        raise RemoteFailure(f"the log-in could not reach Google's token endpoint "
                            f"({type(error).__name__})") from None
    save(credentials, token_path)
    return token_path


def load(token_path: Path) -> Credentials:
    """The token kept at ``token_path``, refreshed (at its ``token_uri``, and kept again)
    when its access token has expired."""
    try:
        info = json.loads(token_path.read_text(encoding="utf-8"))
        read = Credentials.from_authorized_user_info(info)
    except FileNotFoundError:
        raise UsageError(f"no token at {token_path}; log in once with: {LOG_IN}") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise UsageError(f"{token_path} is not a YouTube token this tool wrote "
                         f"({_reason(error)}); log in again with: {LOG_IN}") from None
    # google-auth reads Google's token endpoint in place of the file's token_uri; the
    # log-in wrote the one its client's secrets name (Google's, for a Google client)
    credentials = read.with_token_uri(info.get("token_uri") or read.token_uri)
    credentials.expiry = read.expiry  # which with_token_uri's copy leaves out
    if not credentials.valid:
        try:
            credentials.refresh(Request())
        except RefreshError as error:  # its second argument is the endpoint's whole reply
            said = " ".join(str(error.args[0]).split()) if error.args else "refused"
            raise AuthFailure(f"the token at {token_path} could not be refreshed ({said}): it "
                              f"has expired or was revoked; log in again with: {LOG_IN}") from None
        except TransportError as error:
            raise RemoteFailure(f"could not reach {credentials.token_uri} to refresh the "
                                f"token ({_reason(error)})") from None
        save(credentials, token_path)
    return credentials


def save(credentials: Credentials, token_path: Path) -> None:
    """Keep ``credentials`` at ``token_path`` as authorized-user JSON, whole or not at all,
    readable by its owner only from the moment the file exists."""
    try:
        token_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = files.temporary(token_path.parent, token_path.name)  # made with mode 0600
    except OSError as error:
        raise UsageError(f"cannot write the token to {token_path} ({_reason(error)}); "
                         "give another path with --token") from None
    try:
        partial.write_text(credentials.to_json(), encoding="utf-8")
        os.replace(partial, token_path)
    finally:
        partial.unlink(missing_ok=True)


def _has_browser() -> bool:
    """Whether a browser can be opened here (the flow fails on a machine without one,
    where the printed address is opened elsewhere)."""
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def _reason(error: BaseException) -> str:
    """What ``error`` says, on one line, without the file's contents."""
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} at line {error.lineno}"
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    said = " ".join(str(error).split())
    return said or type(error).__name__
