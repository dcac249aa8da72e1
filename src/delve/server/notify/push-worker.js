// Delve's service worker: shows a Web Push message and opens its game when it is clicked.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: "Delve", body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Delve", {
    body: data.body || "",
    data: { url: data.url || "/" },
    tag: data.url || "delve",
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
