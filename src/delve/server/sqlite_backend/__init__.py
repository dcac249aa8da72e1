"""Django's SQLite backend with one writer lock per process (see ``base``)."""
