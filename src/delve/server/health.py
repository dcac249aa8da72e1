"""``/healthz``: is this process up, can it reach its database, and does its live-update channel
work?

- ``200 {"status": "ok", ...}``: the database answers and live updates reach this process's
  viewers (in the process, or through Redis with ``REDIS_URL``).
- ``200 {"status": "degraded", ..., "live": {"ok": false, "error": ...}}``: the database answers,
  so the process serves every page and command, but its Redis listener is not connected: its
  viewers get other processes' changes only at their pages' next poll. A load balancer that
  should take such a process out of rotation asks ``/healthz?strict=1``, which answers 503 then.
- ``503 {"status": "error", ...}``: the database does not answer.
"""

from __future__ import annotations

import time

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

import delve

#: Seconds ``/healthz`` waits for the Redis listener's first connection (a new process).
LIVE_WAIT = 1.0


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    from delve.server.live.hub import hub

    started = time.perf_counter()
    database: dict[str, object] = {"vendor": connection.vendor}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        database.update(ok=False, error=str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
        return JsonResponse({"status": "error", "version": delve.__version__, "database": database}, status=503)
    database.update(ok=True, latency_ms=round((time.perf_counter() - started) * 1000, 2))
    live = hub().health(LIVE_WAIT)
    body = {"status": "ok" if live["ok"] else "degraded", "version": delve.__version__, "database": database}
    body["live"] = live
    strict = request.GET.get("strict", "").strip().lower() in {"1", "true", "yes", "on"}
    return JsonResponse(body, status=503 if strict and not live["ok"] else 200)
