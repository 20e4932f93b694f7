"""The one rule of the tests of compiled code (``konkun.native``): skip where the build is
missing, except under ``KONKUN_REQUIRE_NATIVE=1`` (CI, which builds it), where a missing
build fails the test."""

from __future__ import annotations

import os

import pytest


def require_native(built: bool, what: str) -> None:
    """Return when ``built``; else fail under ``KONKUN_REQUIRE_NATIVE=1``, or skip. ``what``
    names the missing piece in the message."""
    if built:
        return
    if os.environ.get("KONKUN_REQUIRE_NATIVE") == "1":
        pytest.fail(f"KONKUN_REQUIRE_NATIVE=1 but {what} is not built")
    pytest.skip(f"{what} is not built (python -m konkun.native --build)")
