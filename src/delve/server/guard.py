"""The request guard: the outermost middleware, and the catch-all for every failure.

Before anything else runs it refuses, with a clear answer and without touching the database:

- a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``DELVE_MAX_BODY_BYTES``): 413, from its
  ``Content-Length`` or, for a body without one, once the ASGI server has read past the limit
  (:class:`delve.server.asgi.BoundedBody` stops reading there and marks the request);
- a NUL character in the path, the query string or a form field: 400 (PostgreSQL cannot store
  one, and no legitimate request carries one);
- malformed form data (a multipart body without a boundary, say): 400. The API reads JSON
  bodies only: its ``parse_body`` refuses a multipart body (which this check has read as form
  fields, so it cannot be read again) with 400 ``request/malformed``, :data:`NOT_JSON`.

Afterwards it shapes every failure:

- ``/api/`` answers **every** failure as JSON ``{"error": {"code", "message"}}`` with the right
  status, whatever raised it or whichever layer produced the response: a view's refusal, an
  exception nobody expected (500, logged), Django's own 400/404/500 pages (rewritten);
- the pages show a refusal (:class:`~delve.kernel.DelveError`, e.g. a malformed parameter) on an
  error page with its status (400, 413...), never as a server error (one raised while a GET
  page was drawn is logged too, as a warning with its traceback: a page that could not be drawn
  looks like a refusal; a POST's refusal stays quiet), and a page's address
  visited with a method it does not take (Django's empty 405) on that page too;
- a database that is busy or unreachable (the pool timed out, the SQLite writer queue is full)
  answers 503 with ``Retry-After``, never 500: also when a middleware met it before any view
  ran (the spectator gate's query, a session saved on the way out). Django answers those with
  its own 500 (and logs it) before this guard sees the response, so the exception is remembered
  on the request when Django signals it (``got_request_exception``) and the guard answers it
  as it would have answered a view's.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.exceptions import BadRequest, PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.signals import got_request_exception
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.utils.translation import gettext

from delve.kernel import DelveError
from delve.server.games.errors import Rejected, status_for
from delve.server.inputs import NUL, clip, error_body

log = logging.getLogger("delve.server")

API_PREFIX = "/api/"
#: The methods that draw a page (a DelveError raised while drawing one is logged, see
#: :meth:`RequestGuard.process_exception`).
SAFE = frozenset({"GET", "HEAD"})
RETRY_AFTER = "5"

#: The code and message the API gives for a failure that came without one of ours.
GENERIC = {
    400: ("request/malformed", "the request is malformed"),
    403: ("auth/forbidden", "this request is not allowed"),
    404: ("request/not_found", "there is nothing at this address"),
    405: ("request/method_not_allowed", "this method is not allowed here"),
    413: ("request/too_large", "the request body is too large"),
    500: ("server/error", "the server failed to answer this request; it has been logged"),
    503: ("server/unavailable", "the server is busy or its database is unreachable; try again shortly"),
}


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def too_large(limit: int) -> Rejected:
    return Rejected("request/too_large", f"the request body is larger than {limit} bytes", status=413)


def unavailable() -> Rejected:
    code, message = GENERIC[503]
    return Rejected(code, message, status=503)


class RequestGuard:
    """See the module documentation. Must come first in ``MIDDLEWARE``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refusal = self.refusal(request)
        if refusal is not None:
            return self.answer(request, refusal)
        response = self.get_response(request)
        failure = request.__dict__.pop(FAILURE, None)
        if failure is not None and response.status_code == 500:
            error = as_error(failure)  # raised outside a view (a middleware): answered as from one
            if error is not None:
                return self.answer(request, error)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            return self.answer(request, _generic(response.status_code))
        if response.status_code == 405 and not is_api(request) and not response.streaming and not response.content:
            # a page's address visited with a method it does not take: Django's empty 405 (a
            # blank page) becomes the error page, in the reader's language, with the same Allow
            code = GENERIC[405][0]
            message = gettext("This address takes a form sent from a page, not a visit.")
            page = self.answer(request, Rejected(code, message, status=405))
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """An exception a view raised: a refusal gets its own status, a busy database 503; for
        the API anything else is a logged JSON 500 (pages keep Django's 500 page)."""
        error = as_error(exception)
        if error is not None:
            if (
                isinstance(exception, DelveError)
                and not isinstance(exception, Rejected)
                and request.method in SAFE
                and not is_api(request)
            ):
                # a page that could not be drawn looks like a refusal: keep its traceback, so a
                # real defect is not mistaken for a user's error (a POST's refusal stays quiet,
                # as does a request the server refuses on purpose: a malformed query, a 404)
                log.warning(
                    "page %s %s answered %s: %s",
                    request.method,
                    request.path,
                    status_for(error),
                    clip(str(exception), 200),
                    exc_info=exception,
                )
            return self.answer(request, error)
        if not is_api(request):
            return None  # Django's own 400, 403, 404 and 500 pages
        if isinstance(exception, Http404):
            return self.answer(request, _generic(404))
        if isinstance(exception, PermissionDenied):
            return self.answer(request, _generic(403))
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return self.answer(request, _generic(400))
        log.error("API request %s %s failed", request.method, request.path, exc_info=exception)
        return self.answer(request, _generic(500))

    def refusal(self, request: HttpRequest) -> DelveError | None:
        from django.conf import settings

        limit = int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isascii() or not length.isdigit():
            return Rejected("request/malformed", "the Content-Length header is not a number")
        if int(length) > limit or body_cut(request):
            return too_large(limit)
        try:
            where = _nul_in(request)
        except RequestDataTooBig:
            return too_large(limit)
        except SuspiciousOperation:  # e.g. too many fields
            return _generic(400)
        except MultiPartParserError as exc:  # e.g. no boundary
            return Rejected("request/malformed", f"the form data is malformed ({clip(str(exc), 80)})")
        if where:
            return Rejected("request/malformed", f"{where} contains a NUL character")
        return None

    def answer(self, request: HttpRequest, error: DelveError) -> HttpResponse:
        status = status_for(error)
        response: HttpResponse
        if is_api(request):
            response = JsonResponse({"error": error_body(error)}, status=status)
        else:
            page = render_to_string("error.html", {"status": status, "message": error_body(error)["message"]})
            response = HttpResponse(page, status=status)
        if status == 503:
            response["Retry-After"] = RETRY_AFTER
        response["Cache-Control"] = "no-store"
        return response


_FORMS = {"application/x-www-form-urlencoded", "multipart/form-data"}
#: The API's answer to a multipart body where it reads JSON (the NUL check above read it as form
#: fields, and a multipart body cannot be read twice).
NOT_JSON = "the request body must be JSON (Content-Type: application/json), not multipart/form-data"


def _nul_in(request: HttpRequest) -> str:
    """Where the request carries a NUL character ("" when nowhere)."""
    if NUL in request.path:
        return "the address"
    if _carries_nul(request.GET):
        return "the query string"
    if request.method == "POST" and request.content_type in _FORMS and _carries_nul(request.POST):
        return "a form field"
    return ""


def _carries_nul(data: QueryDict) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in data.lists())


#: The ASGI scope key under which :class:`delve.server.asgi.BoundedBody` marks a request whose body
#: it stopped reading because it passed the limit.
BODY_CUT = "delve.body_cut"


def body_cut(request: HttpRequest) -> bool:
    """Whether the ASGI server stopped reading this request's body because it passed the limit."""
    scope = getattr(request, "scope", None)
    return bool(scope and scope.get(BODY_CUT))


def as_error(exception: BaseException) -> DelveError | None:
    """The refusal an exception stands for, or ``None`` for an unexpected failure."""
    if isinstance(exception, DelveError):
        return exception
    if isinstance(exception, RequestDataTooBig):
        from django.conf import settings

        return too_large(int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
    if isinstance(exception, OperationalError):
        log.warning("database unavailable: %s", str(exception).strip().splitlines()[:1])
        return unavailable()
    return None


#: The request attribute under which :func:`_remember` keeps an exception Django turned into a 500.
FAILURE = "_delve_failure"


def _remember(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Keep the exception being handled on its request (Django sends ``got_request_exception``
    from inside its ``except`` block, where the exception is the current one)."""
    exception = sys.exc_info()[1]
    if request is not None and exception is not None:
        request.__dict__[FAILURE] = exception


got_request_exception.connect(_remember, dispatch_uid="delve.server.guard.remember")


def _generic(status: int) -> Rejected:
    code, message = GENERIC.get(status, (f"http/{status}", f"the request failed with status {status}"))
    return Rejected(code, message, status=status)


def _is_json(response: HttpResponse) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")
