"""Django's PostgreSQL backend, checking the connections it takes from the pool itself (see ``base``)."""
