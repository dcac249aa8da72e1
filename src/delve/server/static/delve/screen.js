/* What both game screens (Fated Labyrinth, White Maiden) share: the panel signatures sent with
 * each refresh, polling without eval, the countdowns on the server's clock, keeping the keyboard
 * focus across refreshes, and the tab's title and icon saying when something waits for the player. Loaded before the screen's own
 * script, which finds these as window.Delve. Plain JavaScript; htmx does the requests. */
(function () {
  "use strict";

  var lastFocus = null;
  var offset = 0; // the server's clock minus the browser's, in seconds (data-server-now)

  window.Delve = {
    /* The signature of every panel on the page, so the server sends only the changed ones. */
    sigs: function () {
      var out = {};
      document.querySelectorAll("[data-panel][data-sig]").forEach(function (el) {
        out[el.getAttribute("data-panel")] = el.getAttribute("data-sig");
      });
      return JSON.stringify(out);
    },
    /* Whether the keyboard is in a field (the screens' shortcuts then keep quiet). */
    typing: function (target) {
      if (!target) return false;
      var tag = target.tagName;
      return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
    },
    markTab: markTab,
    guardPanels: guardPanels
  };

  /* A click is never redirected to a button swapped in under it: a guarded panel (by id) takes
   * no click for SETTLE ms after a refresh swapped it in (aria-busy, shown dimmed: site.css), nor
   * while the element matching the screen's extra selector is busy. Keys are not held back (a
   * shortcut means the same command on the new panel): only pointer clicks (detail > 0; a key's
   * click has 0). Both screens call it with their panels (fated.js, maiden.js). */
  var SETTLE = 400;
  var guarded = [];
  var busySelector = ".panel[aria-busy=true]";
  function guardPanels(ids, extraBusy) {
    guarded = guarded.concat(ids);
    if (extraBusy) busySelector += ", " + extraBusy;
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var panel = event.target;
    if (!panel || guarded.indexOf(panel.id) < 0) return;
    panel.setAttribute("aria-busy", "true");
    setTimeout(function () { panel.removeAttribute("aria-busy"); }, SETTLE);
  });
  document.addEventListener("click", function (event) {
    var el = event.target;
    if (!event.detail || !guarded.length || !(el && el.closest && el.closest(busySelector))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  /* Polling without eval (the page's Content-Security-Policy forbids it, and htmx runs with
   * allowEval off): an element with data-poll-every="N" gets a "delve:poll" event every N seconds
   * while the page is visible; with data-poll-on-visible also at once when the page shows again;
   * with data-send-sigs its request carries the panel signatures. */
  function pollDue() {
    var now = Date.now();
    document.querySelectorAll("[data-poll-every]").forEach(function (el) {
      var every = Number(el.getAttribute("data-poll-every")) * 1000;
      // Pushed notices (live.js) make polling a slow safety net while the stream is connected.
      if (window.DelveLive && window.DelveLive.connected) every = Math.max(every, 10000);
      if (!el.delveNextPoll) el.delveNextPoll = now + every;
      if (now < el.delveNextPoll) return;
      el.delveNextPoll = now + every;
      if (!document.hidden && window.htmx) htmx.trigger(el, "delve:poll");
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !window.htmx) return;
    document.querySelectorAll("[data-poll-on-visible]").forEach(function (el) { htmx.trigger(el, "delve:poll"); });
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-send-sigs")) event.detail.parameters.sigs = window.Delve.sigs();
  });

  /* The tab says when something waits for the player ("(1) Your turn — Game 3"): a panel carries
   * the title and the alert (data-title, data-alert: empty when nothing waits); the icon turns to
   * the page's alert icon (data-alert-icon) meanwhile. */
  function markTab() {
    var mark = document.querySelector("[data-title][data-alert]");
    if (!mark) return;
    document.title = mark.getAttribute("data-title");
    var icon = document.querySelector("link[rel=icon]");
    var host = document.querySelector("[data-alert-icon]");
    if (icon && host) icon.setAttribute("href", mark.getAttribute("data-alert") ? host.getAttribute("data-alert-icon") : "data:,");
  }

  /* Countdowns (time.countdown[data-deadline]: Fated Labyrinth's FL-UI-13 wait time and FL-ABN-1
   * abandonment, White Maiden's deadline) from the server's clock; with data-refresh-at-zero the
   * page asks for its panels again ("delve:refresh") once the countdown has run out. */
  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
    var m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var ja = document.documentElement.lang === "ja";
    if (d > 0) return ja ? d + "日" + h + "時間" : d + " d " + h + " h";
    var mm = (m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h > 0 ? h + ":" + mm + ":" + ss : m + ":" + ss;
  }
  function tick() {
    var now = Date.now() / 1000 + offset;
    document.querySelectorAll("time.countdown[data-deadline]").forEach(function (el) {
      var left = Number(el.getAttribute("data-deadline")) - now;
      el.textContent = format(left);
      if (left <= 0 && el.hasAttribute("data-refresh-at-zero") && !el.hasAttribute("data-fired")) {
        el.setAttribute("data-fired", "1");
        setTimeout(function () { document.body.dispatchEvent(new Event("delve:refresh")); }, 800);
      }
    });
  }

  /* Keep the keyboard focus where it was when a panel is swapped. */
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    lastFocus = active && active.id ? active.id : null;
  });
  document.addEventListener("htmx:oobAfterSwap", markTab);
  document.addEventListener("htmx:afterSettle", function () {
    markTab();
    tick();
    if (!lastFocus) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var again = document.getElementById(lastFocus);
    if (again && !again.disabled) again.focus();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var clock = document.querySelector("[data-server-now]");
    var serverNow = clock ? Number(clock.getAttribute("data-server-now")) : 0;
    if (serverNow) offset = serverNow - Date.now() / 1000;
    markTab();
    tick();
    setInterval(tick, 1000);
    if (document.querySelector("[data-poll-every]")) setInterval(pollDue, 1000);
  });
})();
