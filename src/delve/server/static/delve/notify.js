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
  const { keyBytes, sameKey } = window.DelvePushKey; // push-key.js, loaded before this file
  button.addEventListener("click", async () => {
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") { say(button.dataset.denied); return; }
      const registration = await navigator.serviceWorker.register(button.dataset.worker);
      await navigator.serviceWorker.ready;
      // A subscription made with an older server key is replaced (a browser refuses a second
      // subscription with another key, and the old one gets nothing since the keys changed).
      const old = await registration.pushManager.getSubscription();
      let replaces = "";
      if (old && sameKey(old.options && old.options.applicationServerKey, button.dataset.pushKey) === false) {
        replaces = old.endpoint;
        await old.unsubscribe();
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.pushKey),
      });
      const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
      const body = Object.assign({}, subscription.toJSON(), { applicationServerKey: button.dataset.pushKey, replaces });
      const response = await fetch(button.dataset.subscribe, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(body), credentials: "same-origin",
      });
      say(response.ok ? button.dataset.done : button.dataset.failed);
    } catch (error) {
      say(button.dataset.failed + " " + error);
    }
  });
})();
