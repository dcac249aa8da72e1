"""How API requests are authenticated, and how every API answer and error is shaped.

- ``Authorization: Bearer <token>``: a bot or script (no CSRF: the token is not sent by browsers
  on their own).
- Otherwise the session cookie of a logged-in browser; then unsafe methods need the CSRF token
  (``X-CSRFToken`` header), exactly as Django's forms do.
- Otherwise an anonymous visitor, who may only read public information.

Errors are ``{"error": {"code": ..., "message": ...}}`` (plus ``details`` when there are some).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse, RawPostDataException
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from delve.kernel import DelveError
from delve.server import inputs
from delve.server.accounts.models import ApiToken
from delve.server.api.types import PATTERN_WORDS
from delve.server.games.errors import Rejected, status_for
from delve.server.guard import NOT_JSON, too_large

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def error_response(error: DelveError) -> JsonResponse:
    return JsonResponse({"error": inputs.error_body(error)}, status=status_for(error))


class _CsrfCheck(CsrfViewMiddleware):
    def _reject(self, request: HttpRequest, reason: str) -> Any:
        return reason


def _csrf_failure(request: HttpRequest) -> str | None:
    check = _CsrfCheck(lambda req: HttpResponse())
    check.process_request(request)
    reason = check.process_view(request, None, (), {})
    return reason if isinstance(reason, str) else None


def authenticate(request: HttpRequest) -> None:
    """Set ``request.user`` from a bearer token, or check CSRF for a session's unsafe request.

    :raises Rejected: 401 for a bad token, 403 for a missing or wrong CSRF token.
    """
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Rejected("auth/invalid_token", 'use "Authorization: Bearer <token>"', status=401)
        user = ApiToken.user_for(token.strip())
        if user is None:
            raise Rejected("auth/invalid_token", "this API token is unknown or revoked", status=401)
        request.user = user
        return
    if request.user.is_authenticated and request.method not in SAFE_METHODS:
        reason = _csrf_failure(request)
        if reason:
            raise Rejected("auth/csrf", f"CSRF check failed ({reason}): send the X-CSRFToken header", status=403)


def require_user(request: HttpRequest) -> Any:
    if isinstance(request.user, AnonymousUser) or not request.user.is_authenticated:
        raise Rejected("auth/required", "log in or send an API token (Authorization: Bearer <token>)", status=401)
    return request.user


Result = dict[str, Any] | tuple[dict[str, Any], int] | HttpResponse


def endpoint(*methods: str) -> Callable[[Callable[..., Result]], Callable[..., HttpResponse]]:
    """An API view: allowed methods (``HEAD`` wherever ``GET`` is: the GET's answer without its
    body), authentication, JSON answers, errors in the API's shape."""

    allowed = (*methods, "HEAD") if "GET" in methods and "HEAD" not in methods else methods  # HTTP: HEAD with GET

    def wrap(view: Callable[..., Result]) -> Callable[..., HttpResponse]:
        @csrf_exempt
        @never_cache
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                if request.method not in allowed:
                    raise Rejected(
                        "request/method_not_allowed",
                        f"{request.method} is not allowed here; use {', '.join(allowed)}",
                        status=405,
                    )
                authenticate(request)
                result = view(request, *args, **kwargs)
            except DelveError as error:
                response: HttpResponse = error_response(error)
                if response.status_code == 405:
                    response["Allow"] = ", ".join(allowed)
                return response
            if isinstance(result, HttpResponse):
                return result
            body, status = result if isinstance(result, tuple) else (result, 200)
            return JsonResponse(body, status=status)

        return inner

    return wrap


T = TypeVar("T")


def whole_numbers(value: Any) -> Any:
    """``value`` (decoded JSON) with every whole float as an int: JSON Schema, and so the API's
    description, counts ``3.0`` as the integer 3, so the server reads it so too."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    return value


def parse_body(request: HttpRequest, schema: type[T]) -> T:
    """The JSON body decoded strictly into ``schema`` (unknown fields are refused), after the
    shared checks of :func:`delve.server.inputs.json_text`: at most ``JSON_DEPTH`` levels deep,
    no NUL character anywhere.

    :raises Rejected: 400 ``request/malformed`` quoting the decoder's reason (clipped), 413
        ``request/too_large`` over ``DATA_UPLOAD_MAX_MEMORY_SIZE``.
    """
    try:
        body = request.body or b""
    except RawPostDataException:  # read as form fields already (the guard refuses multipart first)
        raise Rejected("request/malformed", NOT_JSON) from None
    if len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:  # sent without a Content-Length
        raise too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    value = inputs.json_text(body or b"null", "the request body")
    try:
        return msgspec.convert(whole_numbers(value), type=schema)
    except msgspec.ValidationError as exc:
        reason = str(exc)
        for pattern, words in PATTERN_WORDS.items():
            reason = reason.replace(f"`str` matching regex {pattern!r}", words)
        raise Rejected("request/malformed", f"the request body is not valid: {inputs.clip(reason)}") from None


def query_int(request: HttpRequest, name: str, default: int, *, minimum: int = 0, maximum: int = inputs.INT_MAX) -> int:
    raw = request.GET.get(name)
    if raw is None:
        return default
    if len(request.GET.getlist(name)) > 1:  # ?after=5&after=6: which one was meant is a guess
        raise Rejected("request/malformed", f"{name} is given more than once")
    return inputs.whole_number(raw, name, minimum=minimum, maximum=maximum)
