"""Delve: a server for asynchronous dungeon games played in the browser."""

__version__ = "0.1.0"
