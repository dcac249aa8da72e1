"""Issue 16 (LOW, API description): schemathesis against ``/api/v1/openapi.json``. A bounded,
deterministic run (a fixed number of examples per operation, derandomized): no server error, every
answer conforms to the description (status, content type, body schema), what the description
refuses the server refuses, and a request the description allows is never refused as malformed.

A longer run: ``DELVE_SCHEMATHESIS_EXAMPLES=500 .venv/bin/pytest tests/server/test_openapi_conformance.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from delve.server.accounts.models import ApiToken
from delve.server.api.schema import openapi
from delve.server.api.types import CommandBody, CommentBody, RegisterBody

EXAMPLES = int(os.environ.get("DELVE_SCHEMATHESIS_EXAMPLES", "20"))


@schemathesis.check
def allowed_requests_are_not_malformed(ctx: Any, response: Any, case: Any) -> bool | None:
    """What the description allows, the server does not call malformed (the drift the probe
    found: empty kind/name/text allowed by the description, refused by the server)."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code != 400:
        return None
    code = response.json()["error"]["code"]
    if code == "request/malformed":
        raise AssertionError(f"a request the description allows was refused as malformed: {response.json()}")
    return None


@pytest.fixture
def api_schema(game: Any, player: Any) -> Iterator[Any]:
    # As Django's test client does: the test's database connection stays open between requests.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/v1/openapi.json", WSGIHandler())
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.fixture
def bearer(player: Any) -> dict[str, str]:
    _, token = ApiToken.issue(player, "schemathesis")
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.django_db
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_to_its_description(api_schema: Any, game: Any, bearer: dict[str, str], mode: Any) -> None:
    """Each operation gets EXAMPLES requests that fit the description (positive) and as many that
    do not (negative); every answer is checked by schemathesis's checks and ours."""
    failures = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            deadline=None,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            if case.path_parameters and "game_id" in case.path_parameters and mode == GenerationMode.POSITIVE:
                case.path_parameters["game_id"] = game.pk  # a real, running game: past the 404
            case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
            body_key = case.body.get("idempotency_key") if isinstance(case.body, dict) else None
            if isinstance(body_key, str) and "Idempotency-Key" in case.headers:
                # a header and a body key must agree, which a JSON schema cannot say (400 otherwise):
                # send the key once, in the body
                del case.headers["Idempotency-Key"]
            case.call_and_validate(
                headers=bearer,
                # semantic refusals (409 stale version, 422 illegal now) of well-formed requests are fine
                excluded_checks=[schemathesis.checks.positive_data_acceptance],
            )

        try:
            check()
        except Unsatisfiable:
            continue  # no request can break this operation's description (no parameters, no body)
        except Exception as failure:  # noqa: BLE001 - collect every operation's failure, then report
            failures.append(f"{operation.label}: {failure}")
    assert not failures, "\n\n".join(failures)


def test_the_request_bodies_in_the_description_are_the_validating_types():
    components = openapi()["components"]["schemas"]
    for body in (RegisterBody, CommandBody, CommentBody):
        assert components[body.__name__]["additionalProperties"] is False
    register = components["RegisterBody"]["properties"]["name"]
    assert register["minLength"] == 1 and register["maxLength"] == 40 and "pattern" in register
    assert components["CommentBody"]["properties"]["text"]["maxLength"] == 1000
    command = components["CommandBody"]["properties"]["command"]
    assert command["required"] == ["kind"] and command["properties"]["kind"]["pattern"] == "^[a-z][a-z_]*$"
    assert command["propertyNames"]["pattern"] == "^[a-z][a-z_]*$"


@pytest.mark.django_db
def test_the_reference_page_is_rendered_from_the_description(client):
    page = client.get("/api/v1/docs").content.decode()
    for path, operations in openapi()["paths"].items():
        for method in operations:
            assert f"{method.upper()} {path}" in page
    for name in openapi()["components"]["schemas"]:
        assert f'id="schema-{name}"' in page
    assert "1–40 characters" in page  # constraints are shown
    assert "<script" not in page and "https://" not in page  # no code, no CDN


def test_every_operation_names_the_errors_it_does_not_list():
    """Besides the errors an operation lists, every one says what else may come (405, 413, 429,
    500, 503), always with the same error body: a client validating answers finds each described."""
    from delve.server.api.schema import openapi

    document = openapi()
    assert "Other" in document["components"]["responses"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if path.startswith("/api/v1/") and path not in ("/api/v1/openapi.json", "/api/v1/docs"):
                assert operation["responses"].get("default") == {"$ref": "#/components/responses/Other"}, (
                    path,
                    method,
                )
