"""konkun: Konchinka and Kunken, the card games of the south of Russia.

The package holds exact rules engines for both games (:mod:`konkun.konchinka`,
:mod:`konkun.kunken`) on a shared card model (:mod:`konkun.cards`), bots and an arena,
a multiplayer web app, terminal play and a research API.
"""

__version__ = "0.1.0"
