"""Terminal play: ``konkun play konchinka|kunken`` against bots (Textual).

:class:`~konkun.tui.session.PlaySession` holds the match, the bots and the log;
:class:`~konkun.tui.app.PlayApp` draws it and takes the keys. See ``docs/tui.md``.
"""
