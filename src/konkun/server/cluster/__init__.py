"""Several server processes on one database: the notifications between them (:mod:`.bus`),
the stored clocks (:mod:`.clockstore`) and the lobby that reads other processes' changes
back (:mod:`.shared`)."""
