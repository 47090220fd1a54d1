"""Google's OAuth 2.0 side, standing in for the tests: the grants a stand-in API checks
its Bearer tokens against, the token endpoint (grant types ``authorization_code``, PKCE
checked, and ``refresh_token``; a revoked grant is ``invalid_grant``), and the consent
page, which a test plays as the user's browser would (:meth:`OAuthStandIn.consent`; a
log-in run in the test's own process, with its browser played: :func:`log_in_here`).

Tokens are counters with Google's prefixes (``ya29.standin-access-1``,
``1//standin-refresh-1``), so a test can look for them in what was printed.
"""

from __future__ import annotations

import base64
import hashlib
import io
import queue
import threading
import urllib.parse
import urllib.request
from collections import defaultdict
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from google.oauth2.credentials import Credentials

#: the scope the log-in asks for
SCOPE = "https://www.googleapis.com/auth/youtube.force-ssl"
#: the hosts a redirect (and any request of the tests) may go to
LOOPBACK = frozenset({"127.0.0.1"})


@dataclass
class _Grant:
    scopes: frozenset[str]
    revoked: bool = False


class OAuthStandIn:
    """The grants, token endpoint and consent page of a stand-in served at ``root``
    (its token endpoint at ``root`` + "token")."""

    client_id = "standin-client.apps.googleusercontent.com"
    client_secret = "standin-client-secret"

    def __init__(self, root: str) -> None:
        self.token_uri = root + "token"
        self.auth_uri = root + "o/oauth2/auth"
        #: every access token is refused, as for an account whose access is gone
        self.refuse_tokens = False
        self._grants: dict[str, _Grant] = {}  # refresh token -> grant
        self._access: dict[str, str] = {}  # access token -> refresh token
        self._expired: set[str] = set()
        self._codes: dict[str, dict[str, str]] = {}  # code -> what the consent page was asked
        self._ids: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    # -- for the tests -------------------------------------------------------------

    def credentials(self, *, expired: bool = False) -> Credentials:
        """google-auth credentials for a new grant (of :data:`SCOPE`), refreshed here;
        with ``expired`` their access token has expired (here too), so the first request
        refreshes it."""
        with self._lock:
            refresh = self._new_grant(frozenset({SCOPE}))
            token = self._issue(refresh)
        if expired:
            self.expire(token)
        expiry = datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=-1 if expired else 1)
        return Credentials(token, refresh_token=refresh, token_uri=self.token_uri,
                           client_id=self.client_id, client_secret=self.client_secret,
                           scopes=[SCOPE], expiry=expiry)

    def write_token(self, path: Path, *, expired: bool = False) -> Path:
        """A token file for a new grant at ``path``, as the log-in writes it."""
        path.write_text(self.credentials(expired=expired).to_json(), encoding="utf-8")
        path.chmod(0o600)
        return path

    def client_secrets(self) -> dict[str, Any]:
        """The OAuth client's secrets as the Google Cloud console gives them for a desktop
        app, its endpoints here."""
        return {"installed": {"client_id": self.client_id, "client_secret": self.client_secret,
                              "auth_uri": self.auth_uri, "token_uri": self.token_uri,
                              "redirect_uris": ["http://localhost"]}}

    def revoke(self, refresh_token: str) -> None:
        """Revoke a grant: its refresh token and every access token issued for it."""
        with self._lock:
            self._grants[refresh_token].revoked = True

    def expire(self, access_token: str) -> None:
        """The access token has expired: refused from now on."""
        with self._lock:
            self._expired.add(access_token)

    def consent(self, authorization_url: str) -> str:
        """Google's consent page, allowed: the address the browser is sent back to (the
        flow's redirect URI with the state, a new code and the scope)."""
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorization_url).query))
        redirect = urllib.parse.urlsplit(query.get("redirect_uri", ""))
        if (query.get("client_id"), query.get("response_type")) != (self.client_id, "code") or (
                redirect.hostname not in LOOPBACK or "state" not in query
                or query.get("code_challenge_method", "S256") != "S256"):
            raise ValueError(f"the consent page would refuse {authorization_url}")
        with self._lock:
            code = self._new_id("4/standin-code-")
            self._codes[code] = query
        return query["redirect_uri"] + "?" + urllib.parse.urlencode(
            {"state": query["state"], "code": code, "scope": query["scope"]})

    # -- for the server ------------------------------------------------------------

    def scopes(self, authorization: str) -> frozenset[str] | None:
        """The scopes granted to the Bearer token in an ``Authorization`` header, or None
        when the token is refused (unknown, expired, revoked)."""
        token = authorization.removeprefix("Bearer ")
        with self._lock:
            grant = self._grants.get(self._access.get(token, ""))
            if grant is None or grant.revoked or token in self._expired or self.refuse_tokens:
                return None
            return grant.scopes

    def token(self, form: dict[str, str], authorization: str) -> tuple[int, dict[str, Any]]:
        """The token endpoint's answer (status, JSON) to a request with the fields ``form``,
        the client named there or in a Basic ``authorization``."""
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization.startswith("Basic "):
            client_id, _, secret = base64.b64decode(authorization[6:]).decode().partition(":")
            client_id, secret = urllib.parse.unquote(client_id), urllib.parse.unquote(secret)
        if (client_id, secret) != (self.client_id, self.client_secret):
            return 401, {"error": "invalid_client", "error_description": "Unauthorized"}
        with self._lock:
            if form.get("grant_type") == "refresh_token":
                grant = self._grants.get(form.get("refresh_token", ""))
                if grant is None or grant.revoked:
                    return 400, {"error": "invalid_grant",
                                 "error_description": "Token has been expired or revoked."}
                return 200, self._reply(form["refresh_token"], grant)
            if form.get("grant_type") == "authorization_code":
                return self._exchange(form)
        return 400, {"error": "unsupported_grant_type",
                     "error_description": f"Invalid grant_type: {form.get('grant_type')}"}

    def _exchange(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """The code the consent page gave, for a new grant (PKCE checked, as Google does)."""
        asked = self._codes.pop(form.get("code", ""), None)
        invalid = {"error": "invalid_grant", "error_description": "Bad Request"}
        if asked is None or form.get("redirect_uri") != asked["redirect_uri"]:
            return 400, invalid
        if "code_challenge" in asked:
            verifier = form.get("code_verifier", "").encode()
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier).digest())
            if challenge.decode().rstrip("=") != asked["code_challenge"]:
                return 400, invalid
        refresh = self._new_grant(frozenset(asked["scope"].split()))
        return 200, {**self._reply(refresh, self._grants[refresh]), "refresh_token": refresh}

    def _reply(self, refresh: str, grant: _Grant) -> dict[str, Any]:
        return {"access_token": self._issue(refresh), "expires_in": 3599,
                "scope": " ".join(sorted(grant.scopes)), "token_type": "Bearer"}

    def _new_grant(self, scopes: frozenset[str]) -> str:
        refresh = self._new_id("1//standin-refresh-")
        self._grants[refresh] = _Grant(scopes)
        return refresh

    def _issue(self, refresh: str) -> str:
        token = self._new_id("ya29.standin-access-")
        self._access[token] = refresh
        return token

    def _new_id(self, prefix: str) -> str:
        self._ids[prefix] += 1
        return f"{prefix}{self._ids[prefix]}"


# ----------------------------------------------------------------- a log-in in process


class Printed(io.TextIOBase):
    """A stream that keeps what is written to it and hands it on line by line, as it
    comes: a test waits for the line a call in another thread prints (no polling)."""

    def __init__(self) -> None:
        super().__init__()
        self._written: list[str] = []
        self._partial = ""
        self._lines: queue.Queue[str] = queue.Queue()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._written.append(text)
        self._partial += text
        *whole, self._partial = self._partial.split("\n")
        for line in whole:
            self._lines.put(line + "\n")
        return len(text)

    def next_line(self, timeout: float) -> str:
        """The next whole line written (waiting up to ``timeout`` seconds for it)."""
        return self._lines.get(timeout=timeout)

    def getvalue(self) -> str:
        return "".join(self._written)


def log_in_here(oauth: OAuthStandIn, log_in: Callable[[], Any], *,
                timeout: float = 60) -> tuple[Any, list[str], str, str]:
    """Run ``log_in`` (a log-in in this process: it prints the consent page's address on
    two lines, then waits for the browser to come back) on a thread of its own, with what
    it prints captured, and be the user's browser: open the address printed, allow, follow
    the redirect back to the log-in. What ``log_in`` returned, the two lines of its
    prompt, and all it printed on stdout and on stderr (the prompt included)."""
    out, err = Printed(), Printed()
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["returned"] = log_in()
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            done["raised"] = error

    # a daemon: a log-in that never prints its prompt must not hold the test run up
    thread = threading.Thread(target=run, daemon=True)
    with redirect_stdout(out), redirect_stderr(err):
        thread.start()
        try:
            prompt = [out.next_line(timeout) for _ in range(2)]
        except queue.Empty:
            raise AssertionError(f"the log-in printed no prompt: {out.getvalue()!r} "
                                 f"{err.getvalue()!r} {done}") from None
        assert prompt[0].startswith("Open this address in a browser"), prompt
        with urllib.request.urlopen(oauth.consent(prompt[1].strip()), timeout=timeout) as page:
            assert b"Logged in" in page.read()
        thread.join(timeout)
    assert not thread.is_alive(), "the log-in did not end once the browser came back"
    if "raised" in done:
        raise done["raised"]
    return done.get("returned"), prompt, out.getvalue(), err.getvalue()
