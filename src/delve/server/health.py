"""``/healthz``: is this process up and can it reach its database?"""

from __future__ import annotations

import time

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

import delve


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
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
    return JsonResponse({"status": "ok", "version": delve.__version__, "database": database})
