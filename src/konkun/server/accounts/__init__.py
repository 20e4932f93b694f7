"""Accounts and ratings: sign-up and login (:mod:`.accounts`), the rated results of finished
tables (:mod:`.ratings_service`). Below the tables; the routes are in :mod:`konkun.server.web`."""
