"""HTTP security that is not Django's own: the trusted proxy and the Content-Security-Policy.

- :class:`TrustedProxyMiddleware`: when a request comes from an address in
  ``DELVE_TRUSTED_PROXY``, the client's address is taken from ``X-Forwarded-For`` (the right-most
  address that is not itself a trusted proxy) and ``X-Forwarded-Proto`` is believed (Django's
  ``SECURE_PROXY_SSL_HEADER``). From anyone else these headers are removed, so a client can
  neither fake its address (the log-in throttle counts by address) nor claim HTTPS.
- :class:`ContentSecurityPolicyMiddleware`: every response gets ``settings.CONTENT_SECURITY_POLICY``
  unless a view set its own. The pages load scripts and styles from our static files only: no
  inline scripts, no inline styles, no ``eval`` (htmx runs with ``allowEval`` off).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from delve.server.env import Network

FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT")


def _address(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(raw.strip())
    except ValueError:
        return None


def is_trusted(raw: str, networks: Sequence[Network]) -> bool:
    address = _address(raw)
    if address is None:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


def client_address(remote: str, forwarded_for: str, networks: Sequence[Network]) -> str:
    """The client's address for a request from ``remote`` carrying ``X-Forwarded-For``: walk the
    chain from the right past our own trusted proxies; the first other address is the client."""
    if not is_trusted(remote, networks):
        return remote
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if _address(hop) is None:
            return remote  # a garbled chain: count the request as the proxy's own
        if not is_trusted(hop, networks):
            return hop
    return hops[0] if hops else remote


class TrustedProxyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.networks = list(settings.TRUSTED_PROXY_NETWORKS)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        remote = meta.get("REMOTE_ADDR") or ""
        if self.networks and is_trusted(remote, self.networks):
            meta["REMOTE_ADDR"] = client_address(remote, meta.get("HTTP_X_FORWARDED_FOR", ""), self.networks)
        else:
            for header in FORWARDED_HEADERS:
                meta.pop(header, None)
        return self.get_response(request)


def policy(directives: dict[str, Sequence[str]]) -> str:
    return "; ".join(" ".join([name, *values]) for name, values in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = policy(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.header
        return response
