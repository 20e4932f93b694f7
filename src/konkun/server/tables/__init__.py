"""The tables of one process: a table's state (:mod:`.table`) and the lobby's parts that
change it: connections and broadcast, play, the bot loop, seating and replay views."""
