"""The OpenAPI 3.1 description of ``/api/v1`` (served at ``/api/v1/openapi.json``).

A test checks that every URL under ``/api/v1`` appears here.
"""

from __future__ import annotations

from typing import Any

import delve


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    400: "Malformed request (`request/malformed`) or invalid registration (`registration/...`).",
    401: "Not authenticated (`auth/required`, `auth/invalid_token`).",
    403: "Not allowed: no seat in this game (`seat/not_seated`) or a failed CSRF check (`auth/csrf`).",
    404: "Unknown game (`game/not_found`).",
    405: "Method not allowed (`request/method_not_allowed`).",
    409: "Conflict: stale version (`command/stale_version`, with `details.current_version`), or registration "
    "closed, full, name taken, already registered.",
    422: "The rules refuse the command now (the ruleset's code, e.g. `command/illegal`), the game has not "
    "started or has ended, or an idempotency key was reused for another command.",
}


def _responses(ok: dict[str, Any], *errors: int) -> dict[str, Any]:
    return ok | {str(status): {"$ref": f"#/components/responses/E{status}"} for status in errors}


def _body(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """A required JSON request body; unknown fields are refused."""
    schema = {"type": "object", "required": required, "additionalProperties": False, "properties": properties}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


VERSIONED = {
    "version": {"type": "integer", "description": "the version you decided on; 409 if the game moved"},
    "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 100},
}

GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 100},
    "description": "Same as the body's idempotency_key: a repeated key returns the first answer.",
}


def openapi() -> dict[str, Any]:
    schemas: dict[str, Any] = {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {
                        "code": {"type": "string", "examples": ["command/stale_version"]},
                        "message": {"type": "string"},
                        "details": {"type": "object"},
                    },
                }
            },
        },
        "Text": {"type": "object", "additionalProperties": {"type": "string"}},
        "SettingLine": {
            "type": "object",
            "properties": {"key": {"type": "string"}, "label": {"type": "string"}, "value": {"type": "string"}},
        },
        "Seat": {
            "type": "object",
            "description": "Public fields of a seat. `number` (01, 02, ...) and `index` are set at the start.",
            "properties": {
                "index": {"type": ["integer", "null"]},
                "number": {"type": "string"},
                "name": {"type": "string"},
                "options": {"type": "object", "additionalProperties": {"type": "string"}},
                "comment": {"type": "string"},
                "keep_record": {"type": "boolean"},
                "bot": {"type": "boolean"},
            },
        },
        "Game": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "ruleset": {"type": "string"},
                "preset": {"type": "string"},
                "preset_label": {"type": "string"},
                "status": {"type": "string", "enum": ["open", "running", "ended"]},
                "version": {"type": "integer"},
                "seat_count": {"type": "integer"},
                "seats_taken": {"type": "integer"},
                "started_at": {"type": ["integer", "null"], "description": "seconds since the epoch"},
                "ended_at": {"type": ["integer", "null"]},
                "settings": {"type": "array", "items": _ref("SettingLine")},
                "seats": {"type": "array", "items": _ref("Seat")},
            },
        },
        "GameView": {
            "type": "object",
            "properties": {
                "game": _ref("Game"),
                "seat": {"type": ["integer", "null"], "description": "the caller's seat index, null for spectators"},
                "view": {"type": ["object", "null"], "description": "the ruleset's view for that seat"},
                "outcome": {
                    "type": ["object", "null"],
                    "properties": {
                        "winners": {"type": "array", "items": {"type": "integer"}},
                        "results": {"type": "object", "additionalProperties": {"type": "string"}},
                    },
                },
            },
        },
        "Command": {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"type": "string"}},
            "additionalProperties": True,
            "description": 'A command of the game\'s ruleset, e.g. {"kind": "move", "dir": "up"}.',
        },
        "Event": {
            "type": "object",
            "properties": {
                "kind": {"type": "string"},
                "time": {"type": "integer"},
                "data": {"type": "object"},
                "private": {"type": "boolean", "description": "present (true) when only some seats see it"},
            },
        },
        "Answer": {
            "type": "object",
            "properties": {
                "sequence": {"type": "integer"},
                "version": {"type": "integer"},
                "events": {"type": "array", "items": _ref("Event")},
            },
        },
        "Record": {
            "type": "object",
            "properties": {
                "game": {"type": ["integer", "null"]},
                "date": {"type": "string", "format": "date-time"},
                "ruleset": {"type": "string"},
                "preset": {"type": "string"},
                "character_name": {"type": "string"},
                "class": {"type": "string"},
                "result": {"type": "string"},
                "won": {"type": "boolean"},
                "kills": {"type": ["integer", "null"]},
                "treasures": {"type": ["integer", "null"]},
                "turns": {"type": ["integer", "null"]},
            },
        },
        "Records": {
            "type": "object",
            "properties": {"user": {"type": "string"}, "records": {"type": "array", "items": _ref("Record")}},
        },
    }
    responses = {f"E{status}": _json(_ref("Error"), reason) for status, reason in ERRORS.items()}
    write = {"security": [{"bearer": []}, {"session": []}]}
    paths: dict[str, Any] = {
        "/api/v1/games": {
            "get": {
                "summary": "List games, newest first",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["open", "running", "ended"]},
                    },
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 200}},
                ],
                "responses": _responses(
                    {
                        "200": _json(
                            {"type": "object", "properties": {"games": {"type": "array", "items": _ref("Game")}}},
                            "Games",
                        )
                    },
                    400,
                ),
            }
        },
        "/api/v1/games/{game_id}": {
            "get": {
                "summary": "The caller's view of a game (a seat's view, or the public view for others)",
                "description": "Opening the view applies the ruleset's command on open for the caller's seat "
                "(Fated Labyrinth: starting a stored turn).",
                "parameters": [GAME_ID],
                "responses": _responses({"200": _json(_ref("GameView"), "The view")}, 401, 404),
            }
        },
        "/api/v1/games/{game_id}/seats": {
            "post": {
                "summary": "Register a character (the last seat starts the game)",
                "parameters": [GAME_ID],
                **write,
                "requestBody": _body(
                    ["name"],
                    {
                        "name": {"type": "string", "maxLength": 40},
                        "options": {"type": "object", "additionalProperties": {"type": "string"}},
                        "keep_record": {"type": "boolean", "default": True},
                    },
                ),
                "responses": _responses(
                    {
                        "201": _json(
                            {"type": "object", "properties": {"seat": _ref("Seat"), "game": _ref("Game")}},
                            "Registered",
                        )
                    },
                    400,
                    401,
                    403,
                    404,
                    409,
                ),
            },
            "delete": {
                "summary": "Withdraw the caller's character before the start",
                "parameters": [GAME_ID],
                **write,
                "responses": _responses(
                    {"200": _json({"type": "object", "properties": {"game": _ref("Game")}}, "Withdrawn")},
                    401,
                    403,
                    404,
                    409,
                ),
            },
        },
        "/api/v1/games/{game_id}/commands": {
            "get": {
                "summary": "The caller's legal commands now",
                "parameters": [GAME_ID],
                **write,
                "responses": _responses(
                    {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {
                                    "version": {"type": "integer"},
                                    "seat": {"type": ["integer", "null"]},
                                    "commands": {"type": "array", "items": _ref("Command")},
                                    "choices": {
                                        "type": "string",
                                        "description": "digest of these commands; send it back as `choices`",
                                    },
                                },
                            },
                            "Legal commands",
                        )
                    },
                    401,
                    403,
                    404,
                ),
            },
            "post": {
                "summary": "Submit a command for the caller's own seat",
                "description": "One transaction. A stale `version`, or a `choices` digest that no longer matches "
                "the caller's legal commands, answers 409; a repeated idempotency key "
                "returns the first answer (header `Idempotent-Replayed: true`) and applies nothing.",
                "parameters": [GAME_ID, IDEMPOTENCY],
                **write,
                "requestBody": _body(
                    ["command"],
                    {
                        "command": _ref("Command"),
                        **VERSIONED,
                        "choices": {
                            "type": "string",
                            "description": "the `choices` digest of the legal commands you decided on; 409 "
                            "(`command/choices_changed`) if your options changed meanwhile",
                        },
                    },
                ),
                "responses": _responses({"200": _json(_ref("Answer"), "Applied")}, 400, 401, 403, 404, 409, 422),
            },
        },
        "/api/v1/games/{game_id}/comment": {
            "post": {
                "summary": "Replace the caller's comment (the ruleset's comment command)",
                "parameters": [GAME_ID, IDEMPOTENCY],
                **write,
                "requestBody": _body(
                    ["text"],
                    {
                        "text": {"type": "string"},
                        **VERSIONED,
                    },
                ),
                "responses": _responses({"200": _json(_ref("Answer"), "Applied")}, 400, 401, 403, 404, 409, 422),
            }
        },
        "/api/v1/games/{game_id}/events": {
            "get": {
                "summary": "Events the caller may see, oldest first, after a cursor",
                "description": "`after` counts the events this caller has already seen; pass back `cursor`.",
                "parameters": [
                    GAME_ID,
                    {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                ],
                "responses": _responses(
                    {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {
                                    "events": {"type": "array", "items": _ref("Event")},
                                    "cursor": {"type": "integer"},
                                },
                            },
                            "Events",
                        )
                    },
                    400,
                    401,
                    404,
                ),
            }
        },
        "/api/v1/records": {
            "get": {
                "summary": "The caller's personal records",
                **write,
                "responses": _responses({"200": _json(_ref("Records"), "Records")}, 401),
            }
        },
        "/api/v1/records/{username}": {
            "get": {
                "summary": "A player's personal records",
                "parameters": [{"name": "username", "in": "path", "required": True, "schema": {"type": "string"}}],
                "description": "An unknown name answers like a player without records.",
                "responses": {"200": _json(_ref("Records"), "Records")},
            }
        },
        "/api/v1/openapi.json": {
            "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1"}}}
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Delve API",
            "version": delve.__version__,
            "description": 'Errors are always {"error": {"code": ..., "message": ...}}. See docs/api.md.',
        },
        "servers": [{"url": "/"}],
        "paths": paths,
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
