"""The page's unit tests check a text for every error code the server sends
(tests/js/i18n.test.js, without a browser), from the list in tests/js/error_codes.json:
that list is exactly the server's codes, so a new code without a page text fails there."""

from __future__ import annotations

import json
from pathlib import Path

import konkun.server.app  # noqa: F401  (the account routes add their error codes)
from konkun.server.core.protocol import HTTP_STATUS

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "error_codes.json"


def test_the_page_tests_know_every_error_code_the_server_sends() -> None:
    listed = json.loads(FIXTURE.read_text())["codes"]
    assert listed == sorted(HTTP_STATUS), (
        "update tests/js/error_codes.json to the server's codes (sorted(HTTP_STATUS))")
