"""What a table has besides its game: chat, the move clock, the life cycle (hints, timers,
rematches), fair deals, replays and admission limits. A feature names the table only through
the Protocols of :mod:`.ports`, so it sits below :mod:`konkun.server.tables`."""
