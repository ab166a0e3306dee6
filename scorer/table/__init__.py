"""Table mode: the shared table on the host (service + SQLite store), its JSON API, `tourpad host`."""
