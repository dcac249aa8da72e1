"""``/api/v1/docs``: the API reference as a plain page, rendered on the server from the OpenAPI
description (no script, no CDN): every operation with its parameters, body and answers, then
every body type with its fields and constraints."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from delve.server.api.schema import openapi

METHODS = ("get", "post", "put", "patch", "delete")


def _name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def describe(schema: dict[str, Any]) -> str:
    """A short human description of a JSON schema: ``string, 1–40 characters, matching ^...$``."""
    if "$ref" in schema:
        return _name(schema["$ref"])
    if "anyOf" in schema:
        return " or ".join(describe(option) for option in schema["anyOf"])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    parts = [str(kind)]
    if kind == "array" and "items" in schema:
        parts = [f"array of {describe(schema['items'])}"]
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        key = describe(schema["propertyNames"]) if "propertyNames" in schema else "string"
        parts = [f"object of {key} → {describe(schema['additionalProperties'])}"]
    if "enum" in schema:
        parts.append("one of " + ", ".join(str(value) for value in schema["enum"]))
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is not None or high is not None:
        parts.append(f"{low or 0}–{high} characters" if high is not None else f"at least {low} characters")
    if "minimum" in schema or "maximum" in schema:
        parts.append(f"{schema.get('minimum', '…')}–{schema.get('maximum', '…')}")
    if "pattern" in schema:
        parts.append(f"matching {schema['pattern']}")
    if "format" in schema:
        parts.append(schema["format"])
    if "default" in schema and schema["default"] not in (None, {}, []):
        parts.append(f"default {schema['default']}")
    return ", ".join(parts)


def _fields(schema: dict[str, Any]) -> list[dict[str, Any]]:
    required = set(schema.get("required", []))
    rows = []
    for name, field in schema.get("properties", {}).items():
        description = field.get("description") or next(
            (option.get("description") for option in field.get("anyOf", []) if option.get("description")), ""
        )
        rows.append({"name": name, "type": describe(field), "required": name in required, "description": description})
    return rows


def reference() -> dict[str, Any]:
    spec = openapi()
    shared = spec["components"]["responses"]
    operations = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            answers = []
            for status, given in operation["responses"].items():
                answer = shared[_name(given["$ref"])] if "$ref" in given else given
                schema = answer.get("content", {}).get("application/json", {}).get("schema")
                answers.append(
                    {"status": status, "description": answer["description"], "schema": schema and describe(schema)}
                )
            operations.append(
                {
                    "id": f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", "").strip("-"),
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "anonymous": {} in operation.get("security", [{}]),
                    "parameters": [
                        {
                            "name": parameter["name"],
                            "in": parameter["in"],
                            "type": describe(parameter["schema"]),
                            "required": parameter.get("required", False),
                            "description": parameter.get("description", ""),
                        }
                        for parameter in operation.get("parameters", [])
                    ],
                    "body": body and describe(body),
                    "answers": answers,
                }
            )
    schemas = [
        {"name": name, "description": schema.get("description", ""), "fields": _fields(schema)}
        for name, schema in spec["components"]["schemas"].items()
    ]
    return {"info": spec["info"], "operations": operations, "schemas": schemas}


@require_safe
def docs(request: HttpRequest) -> HttpResponse:
    return render(request, "api/docs.html", reference())
