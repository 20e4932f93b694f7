"""Issue 13, identity and secrets: private files, no secret on the command line, the
WebSocket ``hello``, token lifetimes, renewal and revocation, trusted proxies only,
cross-site requests refused and the browser-side headers."""

from __future__ import annotations

import json
import logging
import os
import stat
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from konkun.server.core.auth import TokenRedactor, load_secret
from konkun.server.core.config import Settings
from konkun.server.core.ratelimit import RepeatFilter
from konkun.server.testing import run_server_in_thread

from .conftest import TestClient, guest, legal, new_table, receive, receive_until, running, sit


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_directory_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "fresh" / "data", bot_delay=0.0)
    with running(settings) as client:
        table = new_table(client, bots={"1": "random"})
        token = sit(client, table["id"], 0, "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
            ws.send_json({"type": "action", "turn": state["turn"], "action": legal(state)[0]})
            receive_until(ws, lambda m: m["type"] == "state" and m["turn"] > state["turn"])
        files = sorted(p.name for p in settings.data_dir.iterdir())
        assert {"konkun.sqlite3", "secret.key"} <= set(files)
        assert any(name.endswith("-wal") for name in files), files
        assert _mode(settings.data_dir) == 0o700
        for path in settings.data_dir.iterdir():
            assert _mode(path) == 0o600, (path.name, oct(_mode(path)))


def test_readable_data_is_warned_about_at_start(settings: Settings,
                                                caplog: pytest.LogCaptureFixture) -> None:
    settings.data_dir.mkdir(parents=True)
    settings.data_dir.chmod(0o755)
    (settings.data_dir / "konkun.sqlite3").touch(mode=0o644)
    (settings.data_dir / "konkun.sqlite3").chmod(0o644)
    with caplog.at_level(logging.WARNING, "konkun.server"), running(settings):
        pass
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "other local users can read" in warned
    assert f"{settings.data_dir} is mode 755" in warned
    assert "konkun.sqlite3 is mode 644" in warned


def test_the_command_line_takes_no_secret(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from konkun.cli import main

    assert main(["serve", "--secret", "s3cret", "--data-dir", str(tmp_path)]) != 0
    monkeypatch.setenv("KONKUN_SECRET", "from-the-environment")
    assert load_secret(None, tmp_path) == "from-the-environment"


def test_a_websocket_authenticates_with_a_hello_message(client: TestClient) -> None:
    table = new_table(client)
    token = sit(client, table["id"], 0, "ann")
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
        ws.send_json({"type": "hello", "token": token})
        assert receive(ws)["code"] == "bad_request"  # only as the first message
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": token + "x"})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "unauthorized"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:  # no hello
        assert receive(ws)["you"] is None


def test_a_token_in_the_url_still_works_logged_as_deprecated_without_the_token(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    table = new_table(client)
    token = sit(client, table["id"], 0, "ann")
    for held_back in logging.getLogger("konkun.server").filters:
        if isinstance(held_back, RepeatFilter):
            held_back.reset()  # an earlier test may have logged the warning just now
    with caplog.at_level(logging.INFO), \
            client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        assert receive(ws)["you"] == 0
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "deprecated" in logged
    assert token not in logged


def test_tokens_are_never_logged() -> None:
    redactor = TokenRedactor()
    secret = "eyJpZCI6ImFiYyJ9.abc-def_123"
    for fmt, args in [('%s - "%s %s HTTP/%s" %d',
                       ("127.0.0.1:5", "GET", f"/ws/tables/x?token={secret}", "1.1", 101)),
                      ('%s - "WebSocket %s" [accepted]',
                       ("127.0.0.1:5", f"/ws/tables/x?a=1&token={secret}"))]:
        record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, fmt, args,
                                   None)
        assert redactor.filter(record)
        assert secret not in record.getMessage()
        assert "token=[hidden]" in record.getMessage()


def test_tokens_expire(settings: Settings) -> None:
    settings.token_seconds = 1
    with running(settings) as client:
        _, headers = guest(client, "ann")
        assert client.get("/api/me", headers=headers).status_code == 200
        time.sleep(2.1)
        expired = client.get("/api/me", headers=headers)
        assert expired.status_code == 401 and "expired" in expired.json()["message"]


def test_tokens_are_renewed_silently_while_a_player_is_active(settings: Settings) -> None:
    settings.token_renew_seconds = 0
    with running(settings) as client:
        _token, headers = guest(client, "ann")
        answer = client.get("/api/me", headers=headers)
        renewed = answer.headers["x-konkun-token"]
        again = client.get("/api/me", headers={"Authorization": f"Bearer {renewed}"})
        assert again.json() == answer.json()
        table = new_table(client)
        client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0},
                    headers={"Authorization": f"Bearer {renewed}"})
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": renewed})
            seen: list[dict[str, object]] = []
            receive_until(ws, lambda m: m["type"] == "token", seen=seen)
            assert any(m["type"] == "state" and m["you"] == 0 for m in seen)


def test_a_token_can_be_revoked(settings: Settings) -> None:
    with running(settings) as client:
        token, headers = guest(client, "ann")
        table = new_table(client)
        client.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}, headers=headers)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            receive_until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
            assert client.post("/api/revoke", headers=headers).json() == {"revoked": True}
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == \
                "unauthorized"
        refused = client.get("/api/me", headers=headers)
        assert refused.status_code == 401 and "revoked" in refused.json()["message"]
    with running(settings) as client:  # a restart keeps the revocation
        assert client.get("/api/me", headers=headers).status_code == 401


def _post_guest(url: str, forwarded: str) -> int:
    request = urllib.request.Request(f"{url}/api/guest", method="POST",
                                     data=json.dumps({"nickname": "x"}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "X-Forwarded-For": forwarded})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.parametrize(("trusted", "limited"), [(None, True), ("127.0.0.1", False)])
def test_forwarded_headers_are_trusted_only_from_allowed_proxies(
        tmp_path: Path, trusted: str | None, limited: bool) -> None:
    with run_server_in_thread(data_dir=tmp_path, http_burst=5, http_per_second=0.001,
                              forwarded_allow_ips=trusted) as server:
        codes = [_post_guest(server.url, f"10.0.0.{n}") for n in range(8)]
    assert (429 in codes) is limited, codes


def test_a_post_that_is_not_json_is_refused(client: TestClient) -> None:
    cross_site = [("/api/tables", "text/plain", b'{"game": "fake", "seats": 2}'),
                  ("/api/guest", "application/x-www-form-urlencoded", b"nickname=eve"),
                  ("/api/guest", "multipart/form-data; boundary=x", b"--x--")]
    for path, kind, body in cross_site:
        answer = client.post(path, content=body, headers={"Content-Type": kind})
        assert answer.status_code == 415, (path, kind)
        assert answer.json()["code"] == "unsupported_media_type"
    assert client.get("/api/tables").json()["tables"] == []


def test_a_websocket_from_another_origin_is_refused(settings: Settings) -> None:
    settings.allowed_origins = ("https://friend.example",)
    with running(settings) as client:
        table = new_table(client)["id"]
        with client.websocket_connect(f"/ws/tables/{table}",
                                      headers={"Origin": "https://evil.example"}) as ws:
            assert receive(ws)["code"] == "forbidden_origin"
        for origin in ["http://testserver", "https://friend.example"]:
            with client.websocket_connect(f"/ws/tables/{table}",
                                          headers={"Origin": origin}) as ws:
                assert receive(ws)["type"] == "state", origin


def test_answers_carry_csp_and_framing_headers(client: TestClient) -> None:
    for path in ["/", "/api/tables", "/healthz", "/nope"]:
        headers = client.get(path).headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


def test_guest_file_mode_is_private_even_with_a_loose_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        load_secret(None, tmp_path / "d")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "d") == 0o700
    assert _mode(tmp_path / "d" / "secret.key") == 0o600
