"""`render.py watch`: the page's server serves its own folder and nothing else, each client
on its own (an idle one is dropped after a few seconds and never blocks another or the
redraw, a cancelled one is quiet), bad input is one line, and (in headless Chromium, the
system tier) the page shows an edit, then an error with its file and line, then the fix;
Ctrl-C stops it within two seconds."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from production.errors import UsageError
from production.watch import Watch
from production.watch.one_render import Spec
from production.watch.server import Handler, serve
from tests import browser as chromium
from tests.browser import requested, wait_for


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A watch server of a folder holding a page, a video's bytes and a subfolder, with
    a secret beside the folder; (the folder, its port)."""
    folder = tmp_path / "watch"
    (folder / "v1").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>page</title>")
    (folder / "v1" / "Scene.mp4").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "secret.txt").write_text("not to be served")
    (folder / "v1" / "link").symlink_to(tmp_path / "secret.txt")
    server = serve(folder, 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield folder, server.server_address[1]
    server.shutdown()
    server.server_close()


def get(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None,
        timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.putrequest(method, path, skip_host=False, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.endheaders()
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, dict(answer.getheaders()), body


def test_the_server_serves_its_folder(served):
    folder, port = served
    status, headers, body = get(port, "/")
    assert status == 200 and b"<title>page</title>" in body
    status, headers, body = get(port, "/v1/Scene.mp4")
    assert status == 200 and headers["Content-Type"] == "video/mp4"
    assert body == (folder / "v1" / "Scene.mp4").read_bytes()


def test_the_server_answers_a_byte_range_for_seeking(served):
    folder, port = served
    status, headers, body = get(port, "/v1/Scene.mp4", headers={"Range": "bytes=10-19"})
    assert status == 206 and body == bytes(range(10, 20))
    assert headers["Content-Range"] == "bytes 10-19/1024"
    status, _, body = get(port, "/v1/Scene.mp4", headers={"Range": "bytes=-4"})
    assert status == 206 and body == bytes(range(252, 256))


@pytest.mark.parametrize("path", ["/../secret.txt", "/v1/../../secret.txt",
                                  "/%2e%2e/secret.txt", "/v1/%2E%2E/%2e%2e/secret.txt",
                                  "/v1/link", "//etc/passwd", "/v1/..%2f..%2fsecret.txt"])
def test_the_server_refuses_a_path_outside_its_folder(served, path):
    _, port = served
    status, _, body = get(port, path)
    assert status in (403, 404)
    assert b"not to be served" not in body and b"root:" not in body


def test_the_server_runs_nothing_sent_to_it(served):
    folder, port = served
    before = sorted(p.name for p in folder.rglob("*"))
    for method in ("POST", "PUT", "DELETE"):
        status, _, _ = get(port, "/index.html", method)
        assert status == 405
    assert sorted(p.name for p in folder.rglob("*")) == before


def test_the_server_binds_to_this_machine_only(served):
    _, port = served
    addresses = [line.split()[1] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
                 if int(line.split()[1].split(":")[1], 16) == port and line.split()[3] == "0A"]
    assert addresses == ["0100007F:" + f"{port:04X}"]  # 127.0.0.1, listening


#: how long a test waits for what should take milliseconds: generous on a loaded machine
PATIENCE = 30.0


def idle(port: int, sent: bytes = b"GET / HTTP/1.1\r\n") -> socket.socket:
    """A client that sends ``sent`` (by default a request line and no headers) and waits."""
    client = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    client.sendall(sent)
    return client


def answer(client: socket.socket) -> bytes:
    """All the server sends ``client`` until it closes the connection."""
    received = b""
    while block := client.recv(1 << 16):
        received += block
    return received


def handlers_done() -> None:
    """Wait until no request is being handled in a thread of this process."""
    deadline = time.monotonic() + PATIENCE
    while any("process_request" in t.name for t in threading.enumerate()):
        assert time.monotonic() < deadline, "a request still handled"
        time.sleep(0.01)


def test_a_client_that_sends_nothing_more_blocks_no_other(served, monkeypatch):
    monkeypatch.setattr(Handler, "timeout", 10 * PATIENCE)  # never dropped in this test
    folder, port = served
    with idle(port) as waiting:
        status, _, body = get(port, "/v1/Scene.mp4", timeout=PATIENCE / 3)
        assert status == 200 and body == (folder / "v1" / "Scene.mp4").read_bytes()
        waiting.sendall(b"\r\n")  # and then it is answered too
        assert answer(waiting).startswith(b"HTTP/1.0 200 ")


def test_many_clients_at_once_are_all_answered(served, monkeypatch):
    monkeypatch.setattr(Handler, "timeout", 10 * PATIENCE)
    _, port = served
    # fifty connections open at once, finished last to first: a server that answered one
    # at a time would wait on the first for ever
    clients = [idle(port, b"GET /index.html HTTP/1.0\r\n") for _ in range(50)]
    try:
        for client in reversed(clients):
            client.sendall(b"\r\n")
            assert answer(client).startswith(b"HTTP/1.0 200 ")
    finally:
        for client in clients:
            client.close()
    with ThreadPoolExecutor(50) as pool:  # and fifty whole requests at the same moment
        statuses = list(pool.map(lambda _: get(port, "/", timeout=PATIENCE)[0], range(50)))
    assert statuses == [200] * 50


def test_a_cancelled_video_request_is_quiet(served, capfd):
    folder, port = served
    (folder / "v1" / "Long.mp4").write_bytes(bytes(range(256)) * (1 << 16))  # 16 MB
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.settimeout(PATIENCE)
    client.connect(("127.0.0.1", port))
    client.sendall(b"GET /v1/Long.mp4 HTTP/1.1\r\nRange: bytes=1000-\r\n\r\n")
    assert client.recv(4096).startswith(b"HTTP/1.0 206 ")
    # the browser cancels: the connection reset while the server is still sending
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
    client.close()
    handlers_done()
    status, _, body = get(port, "/v1/Scene.mp4", headers={"Range": "bytes=0-3"})
    assert status == 206 and body == bytes(range(4))
    assert capfd.readouterr().err == ""


def test_an_idle_client_is_dropped_after_a_few_seconds(served):
    assert isinstance(Handler.timeout, float) and 1 <= Handler.timeout <= 10
    _, port = served
    started = time.monotonic()
    clients = [idle(port, sent) for sent in (b"", b"GET /ind", b"GET / HTTP/1.1\r\nHo")]
    try:
        for client in clients:
            assert answer(client) == b""  # closed, with nothing sent
    finally:
        for client in clients:
            client.close()
    assert time.monotonic() - started >= Handler.timeout - 0.1


def test_the_redraw_goes_on_while_a_client_sends_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(Handler, "timeout", 10 * PATIENCE)
    turns: list[float] = []

    def collect(watch: Watch) -> None:  # one turn of the loop: stop after three
        turns.append(time.monotonic())
        if len(turns) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(Watch, "start", lambda watch: None)  # no render: the loop only
    monkeypatch.setattr(Watch, "collect", collect)
    monkeypatch.setattr("gc.freeze", lambda: None)
    server = serve(tmp_path / "watch", 0)
    watch = Watch(Spec("fixture", "Weights", "wide", "preview"), tmp_path / "watch", server, [])
    codes: list[int] = []
    with idle(server.server_address[1]):
        runner = threading.Thread(target=lambda: codes.append(watch.run()), daemon=True)
        runner.start()
        runner.join(PATIENCE)
        assert codes == [0] and len(turns) == 3


def test_a_port_in_use_is_refused(tmp_path, served):
    _, port = served
    with pytest.raises(UsageError, match=rf"--port {port}: another program is using it"):
        serve(tmp_path, port)


def test_a_port_in_use_is_one_line_and_exit_2_and_nothing_written(run_command, served,
                                                                    tmp_path, monkeypatch):
    _, port = served
    from production import paths

    monkeypatch.setattr(paths, "out", lambda: tmp_path / "out")
    ran = run_command("watch", "TitleCard", "--port", str(port))
    assert ran.code == 2
    assert ran.err.strip() == f"render.py: error: --port {port}: another program is using " \
                              "it (0 picks a free port)"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["watch", "NoSuchScene"], r"unknown scene 'NoSuchScene'; scenes: TitleCard, "),
    (["watch", "--chapter", "nope"], r"nope"),
    (["watch", "--frame", "huge"], r"--frame 'huge': must be one of wide, tall, square"),
    (["watch", "--quality", "publish"], r"--quality 'publish': watch takes preview or draft"),
    (["watch", "--port", "http"], r"--port 'http': must be a whole number from 0 to 65535"),
    (["watch", "--port", "70000"], r"--port '70000': must be a whole number"),
])
def test_bad_input_is_one_line_and_exit_2(run_command, args, message):
    ran = run_command(*args)
    assert ran.code == 2
    lines = ran.err.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), ran.err
    assert ran.out == ""


# ----------------------------------------------------------------- in the browser

SCENES = Path("scenes") / "fixture" / "scenes.py"


def start_watch(project: Path) -> tuple[subprocess.Popen, str]:
    watch = subprocess.Popen(
        [sys.executable, "render.py", "watch", "Weights", "--chapter", "fixture"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ})
    first = watch.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+/)", first)
    assert found, first + watch.stderr.read() if watch.poll() is not None else first
    return watch, found[1]


def state(driver) -> dict:
    return driver.execute_script(
        "return {status: document.body.dataset.status, version: +document.body.dataset.version,"
        " error: document.getElementById('error-where').textContent + ' ' +"
        " document.getElementById('error-message').textContent,"
        " marks: [...document.querySelectorAll('.mark')].map(m => m.title),"
        " redrawn: [...document.querySelectorAll('.beat.changed')].map(b => b.dataset.beat),"
        " video: document.getElementById('video').currentSrc,"
        " ready: document.getElementById('video').readyState,"
        " track: [...document.querySelectorAll('track')].map(t => t.src)}")


def settled(driver, after: int, status: str) -> dict:
    """The page's state once it shows a version later than ``after`` with ``status``."""
    def done() -> dict | None:
        now = state(driver)
        return now if now["version"] > after and now["status"] == status else None

    return wait_for(done, f"the page to show a render after version {after} ({status})", 60)


@pytest.mark.system
def test_the_page_shows_an_edit_then_an_error_with_its_line_then_the_fix(
        copy_fixture_project, tmp_path):
    project = copy_fixture_project
    source = project / SCENES
    original = source.read_text()
    watch, url = start_watch(project)
    driver = chromium.driver(tmp_path / "profile", "no-user-gesture-required")
    try:
        driver.get_log("performance")  # Chromium's own start page
        driver.get(url)
        first = settled(driver, 0, "ok")
        assert first["video"].startswith(url) and first["video"].endswith("/Weights.mp4")
        assert first["track"] and first["track"][0].endswith("/Weights.vtt")
        wait_for(lambda: state(driver)["ready"] >= 1, "the video to load")

        # an edit: the total's sentence moved up off the frame
        moved = original.replace("total.move_to([self.centre()[0], top - total.height / 2, 0])",
                                 "total.move_to([self.centre()[0], top + 1.5, 0])")
        assert moved != original
        source.write_text(moved)
        edited = settled(driver, first["version"], "ok")
        assert edited["redrawn"] == ["weights"]
        assert edited["video"] != first["video"]
        assert any("leaves the frame" in mark for mark in edited["marks"]), edited["marks"]

        # an error: a bracket left open
        line = next(n for n, text in enumerate(moved.splitlines(), 1)
                    if 'b = self.beat("weights")' in text)
        source.write_text(moved.replace('b = self.beat("weights")', 'b = self.beat("weights"'))
        broken = settled(driver, edited["version"], "error")
        assert f"scenes/fixture/scenes.py:{line}" in broken["error"]
        assert "SyntaxError" in broken["error"]
        assert broken["video"] == edited["video"] and broken["ready"] >= 1  # still plays

        # the fix
        source.write_text(original)
        fixed = settled(driver, broken["version"], "ok")
        assert fixed["marks"] == [] and fixed["error"].strip() == ""

        urls = requested(driver.get_log("performance"))
        assert urls and [u for u in urls if not u.startswith(url)
                         and chromium.scheme(u) not in chromium.INLINE_SCHEMES] == [], urls
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
    finally:
        driver.quit()
        source.write_text(original)
        watch.send_signal(signal.SIGINT)
        asked = time.monotonic()
        try:
            code = watch.wait(10)
        finally:
            watch.kill()
    took = time.monotonic() - asked
    assert took < 2.0, f"took {took:.1f} s to stop"
    assert code == 0
    folder = project / "out" / "watch" / "Weights-wide"
    assert not list(folder.glob(".v*"))  # no render left half-written
    assert json.loads((folder / "state.json").read_text())["scene"] == "Weights"
