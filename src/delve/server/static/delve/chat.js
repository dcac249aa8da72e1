/* The chat page: the list of messages is fetched again every few seconds while the page is
 * visible (and at once when it shows again), so other players' messages appear without a reload;
 * the message being typed is never touched. Plain JavaScript, no inline code (the page's
 * Content-Security-Policy). */
(function () {
  "use strict";
  var busy = false;
  function refresh() {
    var list = document.getElementById("chat-lines");
    if (!list || busy || document.hidden || !window.fetch) return;
    busy = true;
    fetch(list.getAttribute("data-refresh-url"), { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#chat-lines");
        if (fresh && fresh.innerHTML !== list.innerHTML) list.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* offline a moment: the next round tries again */ })
      .then(function () { busy = false; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var list = document.getElementById("chat-lines");
    if (!list) return;
    var every = Number(list.getAttribute("data-refresh-every")) || 5;
    setInterval(refresh, every * 1000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  });
})();
