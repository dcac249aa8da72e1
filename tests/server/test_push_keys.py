"""Changing the Web Push (VAPID) keys: a browser subscribed with the old public key gets nothing
signed with the new one. Subscriptions are marked with the key they were made with, the push
worker leaves those of an older key alone, `delve check` and the console count them, and every
page of a logged-in player renews this browser's subscription when its key is not the server's
(static/delve/push-key.js, run here by node against a fake browser)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from delve.server.env import push_keys
from delve.server.notify import channels
from delve.server.notify.models import OutboxMessage, PushSubscription
from tests.server.conftest import session_client
from tests.server.notify_kit import browser_keys, fated, step

PUSH_KEY_JS = Path(channels.__file__).resolve().parent.parent / "static" / "delve" / "push-key.js"


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name, email=f"{name}@example.org") for name in ("ann", "bob", "cid", "dan")]


@pytest.fixture
def keys(settings: Any) -> tuple[str, str]:
    """The server's keys now (a real pair); another call of :func:`rotate` changes them."""
    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = push_keys()
    settings.DELVE_VAPID_SUBJECT = "mailto:ops@example.org"
    return settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY


def rotate(settings: Any) -> str:
    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = push_keys()
    return str(settings.DELVE_VAPID_PUBLIC_KEY)


def subscription(endpoint: str, **extra: Any) -> str:
    return json.dumps({"endpoint": endpoint, "keys": browser_keys(), **extra})


def post(client: Any, body: str) -> Any:
    return client.post("/me/push/subscribe/", body, content_type="application/json")


def test_a_subscription_is_marked_with_the_key_and_a_key_change_is_counted(db, four, keys, settings):
    client = session_client(four[0])
    assert post(client, subscription("https://push.example/a")).status_code == 200
    assert PushSubscription.objects.get().server_key == keys[0]
    PushSubscription.objects.create(user=four[1], endpoint="https://push.example/legacy", **browser_keys())
    assert channels.key_census() == {"current": 1, "older": 0, "unknown": 1}
    rotate(settings)
    assert channels.key_census() == {"current": 0, "older": 1, "unknown": 1}
    from delve import cli

    line = cli._push_status(pending=0)
    assert line is not None and line.startswith("on, contact mailto:ops@example.org; 0 browser subscription(s)")
    assert "1 with an older key (they get nothing until they subscribe again" in line
    assert "1 made before keys were recorded" in line


def test_the_console_lists_each_subscription_s_key_and_warns_of_older_ones(db, four, keys, settings, staff):
    PushSubscription.objects.create(
        user=four[0], endpoint="https://push.example/a", server_key=keys[0], **browser_keys()
    )
    rotate(settings)
    PushSubscription.objects.create(
        user=four[1], endpoint="https://push.example/b", server_key=settings.DELVE_VAPID_PUBLIC_KEY, **browser_keys()
    )
    console = session_client(staff)
    page = console.get("/admin/notify/pushsubscription/").content.decode()
    assert "1 browser subscribed with an older VAPID key and gets no push until it subscribes again" in page
    assert "older: no push" in page and "current" in page
    older = console.get("/admin/notify/pushsubscription/?server_key=older").content.decode()
    assert "push.example/a" in older and "push.example/b" not in older


def test_a_renewed_subscription_replaces_the_old_one_and_an_old_key_is_refused(db, four, keys, settings):
    client = session_client(four[0])
    assert post(client, subscription("https://push.example/old")).status_code == 200
    old_key, new_key = keys[0], rotate(settings)
    stale = post(client, subscription("https://push.example/x", applicationServerKey=old_key))
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "push/old-key"
    other = session_client(four[1])
    assert post(other, subscription("https://push.example/bobs")).status_code == 200
    response = post(
        client,
        subscription("https://push.example/new", applicationServerKey=new_key, replaces="https://push.example/bobs"),
    )
    assert response.json() == {"subscribed": True, "replaced": 0}, "another player's subscription is not touched"
    response = post(
        client,
        subscription("https://push.example/new2", applicationServerKey=new_key, replaces="https://push.example/old"),
    )
    assert response.json() == {"subscribed": True, "replaced": 1}
    mine = PushSubscription.objects.filter(user=four[0]).order_by("endpoint")
    assert [(s.endpoint, s.server_key) for s in mine] == [
        ("https://push.example/new", new_key),
        ("https://push.example/new2", new_key),
    ]
    bad = post(client, subscription("https://push.example/y", replaces=7))
    assert bad.status_code == 400


def test_the_worker_leaves_subscriptions_of_an_older_key_alone(db, clock, four, keys, settings, monkeypatch):
    """The push service would refuse them (signed with another key): they are not tried and not
    deleted (the browser replaces its own when its player next opens a page); a player whose only
    browser still has the older key has the message marked gone, not retried for ever."""
    sent: list[str] = []
    monkeypatch.setattr(channels, "webpush", lambda sub, data, ttl: sent.append(sub["endpoint"]))
    old = PushSubscription.objects.create(
        user=four[0], endpoint="https://push.example/old", server_key=keys[0], **browser_keys()
    )
    bobs_old = PushSubscription.objects.create(
        user=four[1], endpoint="https://push.example/bob-old", server_key=keys[0], **browser_keys()
    )
    new_key = rotate(settings)
    PushSubscription.objects.create(
        user=four[0], endpoint="https://push.example/new", server_key=new_key, **browser_keys()
    )
    fated(four)
    step()
    assert sent == ["https://push.example/new"]
    bobs = OutboxMessage.objects.get(user=four[1], channel=OutboxMessage.Channel.PUSH)
    assert bobs.status == OutboxMessage.Status.GONE and "subscribed with an older VAPID key" in bobs.last_error
    assert set(PushSubscription.objects.values_list("pk", flat=True)) >= {old.pk, bobs_old.pk}


def test_every_page_of_a_logged_in_player_carries_the_current_key_when_push_is_on(db, four, keys, settings):
    from django.test import Client

    page = session_client(four[0]).get("/me/waiting/").content.decode()
    assert f'<meta name="delve-push-key" content="{keys[0]}"' in page and "delve/push-key" in page
    assert "delve-push-key" not in Client().get("/accounts/login/").content.decode(), "a visitor has no subscription"
    settings.DELVE_VAPID_PUBLIC_KEY = settings.DELVE_VAPID_PRIVATE_KEY = ""
    assert "delve-push-key" not in session_client(four[0]).get("/me/waiting/").content.decode()


# --- the page script, run by node against a fake browser -------------------------------------------

HARNESS = """
const api = require(process.argv[2]);
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const [oldKey, serverKey, permission, tellsKey] = process.argv.slice(3);
const calls = [];
const subscription = (key, endpoint) => ({
  endpoint,
  options: { applicationServerKey: tellsKey === "yes" ? api.keyBytes(key).buffer : null },
  unsubscribe: async () => { calls.push(["unsubscribe", endpoint]); return true; },
  toJSON: () => ({ endpoint, keys: { p256dh: "P", auth: "A" } }),
});
const registration = {
  pushManager: {
    getSubscription: async () => (oldKey ? subscription(oldKey, "https://push.example/old") : null),
    subscribe: async (options) => {
      calls.push(["subscribe", b64(options.applicationServerKey), options.userVisibleOnly]);
      return subscription(b64(options.applicationServerKey), "https://push.example/new");
    },
  },
};
const page = {
  key: serverKey, worker: "/me/push-worker.js", subscribe: "/me/push/subscribe/", csrf: "T", permission,
  navigator: {
    serviceWorker: { getRegistration: async (url) => { calls.push(["registration", url]); return registration; } },
  },
  fetch: async (url, init) => {
    calls.push(["post", url, init.headers["X-CSRFToken"], JSON.parse(init.body)]);
    return { ok: true };
  },
};
api.refresh(page).then((outcome) => console.log(JSON.stringify({ outcome, calls })));
"""


def run_script(tmp_path: Path, old_key: str, server_key: str, permission: str = "granted", tells: bool = True) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page script's test needs it")
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    args = [str(PUSH_KEY_JS), old_key, server_key, permission, "yes" if tells else "no"]
    result = subprocess.run([node, str(harness), *args], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_page_script_renews_a_subscription_made_with_another_key(tmp_path):
    old_key, new_key = push_keys()[0], push_keys()[0]
    ran = run_script(tmp_path, old_key, new_key)
    assert ran["outcome"] == "renewed"
    assert ran["calls"][:3] == [
        ["registration", "/me/push-worker.js"],
        ["unsubscribe", "https://push.example/old"],
        ["subscribe", new_key, True],
    ]
    [_post, url, csrf, body] = ran["calls"][3]
    assert (url, csrf) == ("/me/push/subscribe/", "T")
    assert body["endpoint"] == "https://push.example/new" and body["keys"] == {"p256dh": "P", "auth": "A"}
    assert body["applicationServerKey"] == new_key and body["replaces"] == "https://push.example/old"


def test_the_page_script_leaves_a_current_or_unknown_subscription_alone(tmp_path):
    key = push_keys()[0]
    assert run_script(tmp_path, key, key) == {"outcome": "current", "calls": [["registration", "/me/push-worker.js"]]}
    assert run_script(tmp_path, key + "==", key)["outcome"] == "current", "padding does not matter"
    other = push_keys()[0]
    assert run_script(tmp_path, key, other, tells=False)["outcome"] == "unknown"
    assert run_script(tmp_path, key, other, permission="denied")["outcome"] == "denied"
    assert run_script(tmp_path, "", other)["outcome"] == "none"
