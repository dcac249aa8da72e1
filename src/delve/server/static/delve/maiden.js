/* The White Maiden screen: keyboard shortcuts, clicks on the map's lit rooms, the panel
 * signatures sent with each refresh and the deadline countdown. Plain JavaScript; htmx does the
 * requests. Every command sent is one the server rendered (data-command / a button's form). */
(function () {
  "use strict";

  var offset = 0;
  var lastFocus = null;

  window.Delve = {
    sigs: function () {
      var out = {};
      document.querySelectorAll("[data-panel][data-sig]").forEach(function (el) {
        out[el.getAttribute("data-panel")] = el.getAttribute("data-sig");
      });
      return JSON.stringify(out);
    }
  };

  /* Polling without eval (the Content-Security-Policy forbids it; htmx runs with allowEval off):
   * an element with data-poll-every="N" gets a "delve:poll" event every N seconds while the page
   * is visible, with data-poll-on-visible also when the page shows again; with data-send-sigs its
   * request carries the panel signatures, so only changed panels come back. */
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

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  function press(button) {
    if (!button || button.disabled) return false;
    if (window.htmx && button.form) htmx.process(button.form);
    button.focus();
    button.click();
    return true;
  }

  /* Send a command rendered on the map (a lit destination room) through the hidden form. */
  function send(command) {
    var form = document.getElementById("act-form");
    var input = document.getElementById("act-command");
    if (!form || !input || !command) return;
    input.value = command;
    if (window.htmx) {
      htmx.process(form);
      htmx.trigger(form, "submit");
    } else {
      form.submit();
    }
  }

  /* R roll, B best ascension, E resolve, S stay, 1-9 the listed rooms or options. */
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target)) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : "";
    if (!key) {
      if ((event.key === "Enter" || event.key === " ") && event.target.getAttribute &&
          event.target.getAttribute("data-command")) {
        event.preventDefault();
        send(event.target.getAttribute("data-command"));
      }
      return;
    }
    var panel = document.getElementById("panel-decide");
    if (!panel) return;
    var button = panel.querySelector('button[data-key="' + key + '"]');
    if (button && press(button)) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var room = event.target.closest && event.target.closest("[data-command]");
    if (!room) return;
    event.preventDefault();
    send(room.getAttribute("data-command"));
  });

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
      el.textContent = format(Number(el.getAttribute("data-deadline")) - now);
    });
  }

  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    lastFocus = active && active.id ? active.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    tick();
    if (!lastFocus) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var again = document.getElementById(lastFocus);
    if (again && !again.disabled) again.focus();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("maiden");
    if (!root) return;
    var serverNow = Number(root.getAttribute("data-server-now"));
    if (serverNow) offset = serverNow - Date.now() / 1000;
    tick();
    setInterval(tick, 1000);
    setInterval(pollDue, 1000);
  });
})();
