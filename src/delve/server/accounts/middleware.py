"""Answers a log-in refused by the throttle with ``429 Too Many Requests`` and ``Retry-After``
(the page itself shows the form with the message), for the site's and the admin's log-in."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from delve.server.accounts.backends import throttled_for


class LoginThrottleStatusMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        wait = throttled_for(request)
        if wait and response.status_code == 200:
            response.status_code = 429
            response.reason_phrase = "Too Many Requests"
            response["Retry-After"] = str(wait)
        return response
