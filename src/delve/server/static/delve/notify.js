// The preference page's "push in this browser" button: registers the service worker, subscribes
// with the server's VAPID public key and sends the subscription to the server.
(function () {
  "use strict";
  const button = document.querySelector("[data-push-key]");
  if (!button) return;
  const status = document.getElementById("push-status");
  const say = (text) => { if (status) status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    button.disabled = true;
    say(button.dataset.unsupported);
    return;
  }
  const keyBytes = (base64) => {
    const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  button.addEventListener("click", async () => {
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") { say(button.dataset.denied); return; }
      const registration = await navigator.serviceWorker.register(button.dataset.worker);
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.pushKey),
      });
      const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
      const response = await fetch(button.dataset.subscribe, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(subscription.toJSON()), credentials: "same-origin",
      });
      say(response.ok ? button.dataset.done : button.dataset.failed);
    } catch (error) {
      say(button.dataset.failed + " " + error);
    }
  });
})();
