"""Shared helpers for the terminal tests: the toy game (registered for every test in
``tests/conftest.py``) tests the app's machinery apart from either engine."""
