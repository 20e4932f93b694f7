"""The database: the tables and their actions (:mod:`.storage`), the grouped commit of
actions (:mod:`.commits`) and the limits counted across processes (:mod:`.clusterlimits`);
the schema is made by :mod:`konkun.server.migrations` only."""
