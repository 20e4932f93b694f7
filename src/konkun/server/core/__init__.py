"""What every layer of the server uses: the protocol's errors and names, the settings, a
guest's identity and connection, the game adapters, the bot seats and the worker threads.
Imports nothing else of :mod:`konkun.server` (see ``docs/architecture.md``)."""
