"""The OpenAPI 3.1 description of ``/api/v1`` (served at ``/api/v1/openapi.json`` and rendered
as a reference page at ``/api/v1/docs``).

Every request and response body is generated from the msgspec types in ``api/types.py``, the
same types that validate the requests, so the description says exactly what the server accepts.
Only the paths, parameters and status codes are written here. A test checks that every URL under
``/api/v1`` appears here, and schemathesis checks the server against this document.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

import delve
from delve.server.api import types

REF = "#/components/schemas/{name}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    400: "Malformed request (`request/malformed`) or invalid registration (`registration/...`).",
    401: "Not authenticated (`auth/required`, `auth/invalid_token`).",
    403: "Not allowed: no seat in this game (`seat/not_seated`), a seat named that the caller does not play "
    "(`seat/not_yours`), a game closed to spectators "
    "(`game/no_spectators`) or a failed CSRF check (`auth/csrf`).",
    404: "Unknown game (`game/not_found`).",
    409: "Conflict: stale version (`command/stale_version`, with `details.current_version`), changed choices "
    "(`command/choices_changed`), registration closed, full, name taken, already registered, or a seat "
    "no bot took over (`seat/not_taken_over`), or a command (not a comment) for a seat a bot plays since "
    "its player left it idle (`seat/taken_over`: take it back first).",
    422: "The rules refuse the command now (the ruleset's code, e.g. `command/not_your_phase`, "
    "`command/invalid_target`, `command/malformed`; docs/api.md lists them all), the game has not "
    "started or has ended, or an idempotency key was reused for another command.",
}


def _responses(ok: dict[str, Any], *errors: int) -> dict[str, Any]:
    listed = {str(status): {"$ref": f"#/components/responses/E{status}"} for status in errors}
    return ok | listed | {"default": {"$ref": "#/components/responses/Other"}}


OTHER = (
    "Any other error, with the same error body: 405 a method the path does not serve "
    "(`request/method_not_allowed`), 413 a body over the size limit, 429 too many requests, 500 a "
    "server error (`server/error`), 503 the server is busy or its database unreachable."
)


def _body(name: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": 2**53},
}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    # the same rule as the body's field: printable characters (HTTP itself keeps a header to visible ASCII
    # and spaces)
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[ -~]+$"},
    "description": "Same as the body's idempotency_key (which wins if both are sent and equal; 400 if they differ): "
    "1 to 100 printable characters, spaces included.",
}
SEAT = {
    "name": "seat",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 0, "maximum": 255},
    "description": "The seat to read for (0-based index): by default the caller's own; another only if the caller "
    "plays it, a seat of their hot-seat table (else 403 `seat/not_yours`; 401 without logging in).",
}
STATUSES = ["open", "running", "ended"]
WRITE = {"security": [{"bearer": []}, {"session": []}]}
READ = {"security": [{"bearer": []}, {"session": []}, {}]}


def _paths() -> dict[str, Any]:
    return {
        "/api/v1/games": {
            "get": {
                "summary": "List games, newest first",
                **READ,
                "parameters": [
                    {"name": "status", "in": "query", "schema": {"type": "string", "enum": STATUSES}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 200}},
                ],
                "responses": _responses({"200": _json(_ref("Games"), "Games")}, 400, 401),
            }
        },
        "/api/v1/me/games": {
            "get": {
                "summary": "The caller's games: those waiting for the caller first",
                "description": "What the Waiting on me page lists: the running games the caller has a seat in (those "
                "that wait for the caller first, then by deadline), each with the caller's `seat`, `must_act` and "
                "`deadline`, and `out` once their character has died or was abandoned (the game still listed, "
                "last, until it ends; `must_act` false); then the open games the caller is registered in (`seat` "
                "null until the start). Ended games are left out unless asked for: `?status=ended` lists the "
                "caller's ended games, the last to end first, each with their `seat` (`must_act` false, `deadline` "
                "and `out` null; the result is the game's `outcome`, `GET /api/v1/games/{id}`); `?status=running` "
                "or `?status=open` lists only those.",
                **READ,
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": STATUSES},
                        "description": "Only the caller's games in this state; `ended` lists the ended ones, which "
                        "are listed only when asked for.",
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 200},
                        "description": "At most this many games (default 50).",
                    },
                ],
                "responses": _responses({"200": _json(_ref("MyGames"), "The caller's games")}, 400, 401),
            }
        },
        "/api/v1/games/{game_id}": {
            "get": {
                "summary": "The caller's view of a game (a seat's view, or the public view for others)",
                "description": "Reading never changes the game: a stored turn starts with the `start_turn` "
                "command. The `ETag` changes exactly when what the caller can see does; send it back in "
                "`If-None-Match` to get 304 while nothing changed.",
                **READ,
                "parameters": [
                    GAME_ID,
                    SEAT,
                    {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}},
                ],
                "responses": _responses(
                    {
                        "200": _json(_ref("GameView"), "The view"),
                        "304": {"description": "Not modified: the `If-None-Match` tag is still current"},
                    },
                    400,
                    401,
                    403,
                    404,
                ),
            }
        },
        "/api/v1/games/{game_id}/seats": {
            "post": {
                "summary": "Register a character (the last seat starts the game)",
                "parameters": [GAME_ID],
                **WRITE,
                "requestBody": _body("RegisterBody"),
                "responses": _responses({"201": _json(_ref("Registered"), "Registered")}, 400, 401, 403, 404, 409),
            },
            "delete": {
                "summary": "Withdraw the caller's character before the start",
                "parameters": [GAME_ID],
                **WRITE,
                "responses": _responses({"200": _json(_ref("Withdrawn"), "Withdrawn")}, 401, 403, 404, 409),
            },
        },
        "/api/v1/games/{game_id}/commands": {
            "get": {
                "summary": "The caller's legal commands now",
                "parameters": [GAME_ID, SEAT],
                **WRITE,
                "responses": _responses({"200": _json(_ref("LegalCommands"), "Legal commands")}, 400, 401, 403, 404),
            },
            "post": {
                "summary": "Submit a command for the caller's own seat (or a seat of their hot-seat table)",
                "description": "One transaction. A stale `version`, or a `choices` digest that no longer matches "
                "the caller's legal commands, answers 409; a repeated idempotency key returns the first answer "
                "(header `Idempotent-Replayed: true`) and applies nothing. The answer lists the caller's legal "
                "commands right after the command, with their `choices` digest, for the next decision.",
                "parameters": [GAME_ID, IDEMPOTENCY],
                **WRITE,
                "requestBody": _body("CommandBody"),
                "responses": _responses({"200": _json(_ref("CommandAnswer"), "Applied")}, 400, 401, 403, 404, 409, 422),
            },
        },
        "/api/v1/games/{game_id}/comment": {
            "post": {
                "summary": "Replace the caller's comment (the ruleset's comment command)",
                "parameters": [GAME_ID, IDEMPOTENCY],
                **WRITE,
                "requestBody": _body("CommentBody"),
                "responses": _responses({"200": _json(_ref("Answer"), "Applied")}, 400, 401, 403, 404, 409, 422),
            }
        },
        "/api/v1/games/{game_id}/reclaim": {
            "post": {
                "summary": "Take a seat back from the bot that took it over",
                "description": 'For the caller\'s own seat (no body, or `{}`) or, with `{"seat": n}`, a seat the '
                "caller controls: one of their hot-seat table's. While the game runs and a bot plays it because its "
                "player kept the game waiting past the host's takeover time or left it (the seat's `bot_since` is "
                "set). Writes a public `seat.reclaimed` event; the seat's idle time starts again now. The seat still "
                "keeps no personal record. A seat the caller does not control answers 403 `seat/not_yours`; a seat "
                "no bot took over 409 `seat/not_taken_over`; a game not started or ended 422. A refusal changes "
                "nothing.",
                "parameters": [GAME_ID],
                **WRITE,
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": _ref("ReclaimBody")}},
                },
                "responses": _responses({"200": _json(_ref("Answer"), "Taken back")}, 400, 401, 403, 404, 409, 422),
            }
        },
        "/api/v1/games/{game_id}/leave": {
            "post": {
                "summary": "Leave the table: a bot plays the seat from now",
                "description": 'For the caller\'s own seat (no body, or `{}`) or, with `{"seat": n}`, a seat the '
                "caller controls: one of their hot-seat table's (a host may hand any seat of the table to a bot), "
                "while the game runs and a bot can play it. The game goes on for the others (in a cooperative game "
                "the team keeps its member). Writes a public `seat.left` event; the seat keeps no personal record "
                "from now on; the caller may take it back with `reclaim` (naming the same seat). A seat the caller "
                "does not control answers 403 `seat/not_yours`; a seat a bot plays already 409 `seat/bot`; with no "
                "seat named, a hot-seat seat as the caller's own 409 `seat/table`; a game not started or ended, or "
                "one no bot can play, 422. A refusal changes nothing.",
                "parameters": [GAME_ID],
                **WRITE,
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": _ref("LeaveBody")}},
                },
                "responses": _responses({"200": _json(_ref("Answer"), "Left")}, 400, 401, 403, 404, 409, 422),
            }
        },
        "/api/v1/games/{game_id}/handover": {
            "post": {
                "summary": "Hand a seat that has kept the game waiting for days to a bot",
                "description": "For a player seated in the running game (not played by a bot): another person's "
                "seat that has kept the game waiting at least 48 hours (the same measure as the host's takeover "
                "time) is handed to a bot. Writes a public `seat.handed_over` event; its player is notified and "
                "may take the seat back with `reclaim`. A seat not waited on that long, a bot's or a hot-seat "
                "seat answers 409 `seat/not_idle`; the caller's own seat 400 (leave instead).",
                "parameters": [GAME_ID],
                **WRITE,
                "requestBody": _body("HandOverBody"),
                "responses": _responses({"200": _json(_ref("Answer"), "Handed over")}, 400, 401, 403, 404, 409, 422),
            }
        },
        "/api/v1/games/{game_id}/events": {
            "get": {
                "summary": "Events the caller may see, oldest first, after a cursor",
                "description": "`after` counts the events this caller has already seen; pass back `cursor`.",
                **READ,
                "parameters": [
                    GAME_ID,
                    {
                        "name": "after",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 0, "maximum": types.AFTER_MAX},
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "Events per page: 1 to 100 (the default and the maximum); then after=cursor.",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 100},
                    },
                    SEAT,
                ],
                "responses": _responses({"200": _json(_ref("Events"), "Events")}, 400, 401, 403, 404),
            }
        },
        "/api/v1/records": {
            "get": {
                "summary": "The caller's personal records",
                **WRITE,
                "responses": _responses({"200": _json(_ref("Records"), "Records")}, 401),
            }
        },
        "/api/v1/records/{username}": {
            "get": {
                "summary": "A player's personal records",
                "description": "An unknown name answers like a player without records.",
                **READ,
                "parameters": [
                    {
                        "name": "username",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "minLength": 1},
                    }
                ],
                "responses": _responses({"200": _json(_ref("Records"), "Records")}, 401),
            }
        },
        "/api/v1/openapi.json": {
            "get": {"summary": "This document", **READ, "responses": {"200": {"description": "OpenAPI 3.1"}}}
        },
        "/api/v1/docs": {
            "get": {
                "summary": "This document as a readable page",
                **READ,
                "responses": {"200": {"description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}},
            }
        },
    }


@functools.cache
def openapi() -> dict[str, Any]:
    _, schemas = msgspec.json.schema_components(types.REQUESTS + types.RESPONSES, ref_template=REF)
    responses = {f"E{status}": _json(_ref("Error"), reason) for status, reason in ERRORS.items()}
    responses["Other"] = _json(_ref("Error"), OTHER)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Delve API",
            "version": delve.__version__,
            "description": 'Errors are always {"error": {"code": ..., "message": ...}}. A request body is read '
            "as JSON whatever its Content-Type says (send `application/json`); only `multipart/form-data` is "
            "refused (400 `request/malformed`: it is read as form fields). See docs/api.md "
            "and the reference page at /api/v1/docs.",
        },
        "servers": [{"url": "/"}],
        "paths": _paths(),
        "components": {
            "schemas": schemas,
            "responses": responses,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "An API token (bots, scripts)."},
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "sessionid",
                    "description": "A browser session; unsafe methods also need the X-CSRFToken header.",
                },
            },
        },
    }
