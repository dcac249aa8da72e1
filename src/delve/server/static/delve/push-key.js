// Push key rotation, on every page of a logged-in player while the server has Web Push on: a
// browser subscribed with an older VAPID public key (the operator changed the keys) gets nothing
// signed with the new one, silently. On page load this compares the key this browser's
// subscription was made with (its options.applicationServerKey) with the server's current one
// (<meta name="delve-push-key">) and, when they differ, subscribes again with the current key and
// tells the server, which replaces the old subscription. notify.js (the preference page's button)
// uses keyBytes and sameKey too. Also loaded by node for the tests (module.exports).
(function () {
  "use strict";

  // The bytes of a base64url text (with or without its "=" padding).
  function keyBytes(base64) {
    const text = String(base64).replace(/=+$/, "");
    const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  // Whether a subscription's applicationServerKey (an ArrayBuffer, or null when the browser does
  // not say) is the server's key (base64url): true, false, or null when it cannot be told.
  function sameKey(subscriptionKey, serverKey) {
    if (!subscriptionKey || !serverKey) return null;
    const given = new Uint8Array(subscriptionKey);
    const current = keyBytes(serverKey);
    if (given.length !== current.length) return false;
    return given.every((byte, i) => byte === current[i]);
  }

  // Check this browser's subscription against the server's key and renew it when it was made with
  // another one. Everything it touches comes in `page` (the tests give fakes): key, worker (the
  // service worker's URL), subscribe (the URL taking the new subscription), csrf, navigator,
  // permission (Notification.permission) and fetch. What it did: "unsupported", "none" (no
  // subscription here), "current", "unknown" (the browser does not tell its key), "denied"
  // (notifications no longer allowed: left alone), "renewed" or "failed".
  async function refresh(page) {
    const nav = page.navigator;
    if (!nav || !nav.serviceWorker || !nav.serviceWorker.getRegistration) return "unsupported";
    const registration = await nav.serviceWorker.getRegistration(page.worker);
    if (!registration || !registration.pushManager) return "none";
    const old = await registration.pushManager.getSubscription();
    if (!old) return "none";
    const same = sameKey(old.options && old.options.applicationServerKey, page.key);
    if (same === null) return "unknown";
    if (same) return "current";
    if (page.permission !== "granted") return "denied";
    const replaces = old.endpoint;
    await old.unsubscribe(); // a browser refuses a second subscription with another key
    const fresh = await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(page.key),
    });
    const response = await page.fetch(page.subscribe, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": page.csrf },
      body: JSON.stringify(Object.assign({}, fresh.toJSON(), { applicationServerKey: page.key, replaces })),
      credentials: "same-origin",
    });
    return response.ok ? "renewed" : "failed";
  }

  const api = { keyBytes, sameKey, refresh };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
    return;
  }
  window.DelvePushKey = api;
  const meta = document.querySelector('meta[name="delve-push-key"]');
  if (!meta || !meta.content) return;
  refresh({
    key: meta.content,
    worker: meta.dataset.worker,
    subscribe: meta.dataset.subscribe,
    csrf: meta.dataset.csrf,
    navigator: window.navigator,
    permission: window.Notification ? window.Notification.permission : "default",
    fetch: window.fetch.bind(window),
  }).catch(() => {}); // a failure leaves things as they were; the next page tries again
})();
