/* The Fated Labyrinth screen: keyboard moves, tile selection, countdowns, command help and the
 * panel signatures sent with each refresh. Plain JavaScript; htmx does the requests. */
(function () {
  "use strict";

  var root = null;
  var offset = 0; // server clock minus browser clock, in seconds
  var lastFocus = null;
  var KEYS = {
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
    w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right"
  };

  window.Delve = {
    /* The signature of every panel on the page, so the server sends only the changed ones. */
    sigs: function () {
      var out = {};
      document.querySelectorAll("[data-panel][data-sig]").forEach(function (el) {
        out[el.getAttribute("data-panel")] = el.getAttribute("data-sig");
      });
      return JSON.stringify(out);
    }
  };

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

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  /* FL-UI-6, FL-MOVE-8: arrow keys and WASD press the quick-move buttons (never while typing). */
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey && event.key.length > 1) return;
    if (typing(event.target)) return;
    var dir = KEYS[event.key];
    if (!dir) return;
    var button = document.getElementById("qm-" + dir);
    if (!button || button.disabled) return;
    event.preventDefault();
    // A panel swapped a moment ago may not be wired to htmx yet: wire it first, so the press
    // never falls back to a plain form post.
    if (window.htmx && button.form) htmx.process(button.form);
    button.focus();
    button.click();
  });

  /* Card play on the map: "Pick on the map" lights up the tiles of that use's targets; a click on
   * one of them presses the use's button for that tile (its confirmation included); Escape or a
   * second press of the toggle ends the picking. Pointing at a target button marks its tile. */
  var aiming = null;
  function cellAt(xy) {
    var parts = xy.split(",");
    return document.querySelector(".map .cell[data-x='" + parts[0] + "'][data-y='" + parts[1] + "']");
  }
  function clearAim() {
    document.querySelectorAll(".map .cell.aim-target").forEach(function (el) { el.classList.remove("aim-target"); });
    document.querySelectorAll(".aim-toggle[aria-pressed=true]").forEach(function (el) { el.setAttribute("aria-pressed", "false"); });
    var board = document.getElementById("board");
    if (board) board.removeAttribute("data-aiming");
  }
  function showAim() {
    clearAim();
    var group = aiming && document.getElementById(aiming);
    if (!group) { aiming = null; return; }
    group.querySelectorAll("[data-aim-tile]").forEach(function (button) {
      var cell = cellAt(button.getAttribute("data-aim-tile"));
      if (cell) cell.classList.add("aim-target");
    });
    var toggle = group.querySelector(".aim-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", "true");
    var board = document.getElementById("board");
    if (board) board.setAttribute("data-aiming", aiming);
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".aim-toggle[data-aim]");
    if (toggle) {
      aiming = aiming === toggle.getAttribute("data-aim") ? null : toggle.getAttribute("data-aim");
      showAim();
      var map = document.getElementById("panel-map");
      if (aiming && map && map.scrollIntoView) map.scrollIntoView({ block: "nearest" });
      return;
    }
    var cell = event.target.closest && event.target.closest(".map .cell.aim-target[data-x]");
    if (!cell || !aiming) return;
    var group = document.getElementById(aiming);
    var xy = cell.getAttribute("data-x") + "," + cell.getAttribute("data-y");
    var button = group && group.querySelector("[data-aim-tile='" + xy + "']");
    if (!button) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    if (window.htmx && button.form) htmx.process(button.form);
    aiming = null;
    clearAim();
    button.click();
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && aiming) { aiming = null; clearAim(); }
  });
  function markTarget(event, on) {
    var button = event.target.closest && event.target.closest("[data-aim-tile]");
    if (!button) return;
    var cell = cellAt(button.getAttribute("data-aim-tile"));
    if (cell) cell.classList.toggle("aim-hover", on);
  }
  document.addEventListener("mouseover", function (event) { markTarget(event, true); });
  document.addEventListener("mouseout", function (event) { markTarget(event, false); });
  document.addEventListener("focusin", function (event) { markTarget(event, true); });
  document.addEventListener("focusout", function (event) { markTarget(event, false); });

  /* FL-UI-1/2: a click on a tile in sight loads its details. */
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("button.cell[data-x]");
    if (!cell || !root) return;
    var value = cell.getAttribute("data-x") + "," + cell.getAttribute("data-y");
    document.getElementById("selected-tile").value = value;
    document.querySelectorAll(".map .cell.selected").forEach(function (el) { el.classList.remove("selected"); });
    cell.classList.add("selected");
    if (window.htmx) {
      htmx.ajax("GET", root.getAttribute("data-tile-url") + "?tile=" + value, { target: "#panel-tile", swap: "outerHTML" });
    }
  });

  /* FL-UI-8: the help of the command under the pointer or the keyboard focus. */
  function showHelp(event) {
    var el = event.target.closest && event.target.closest("[data-help]");
    if (!el) return;
    var help = el.getAttribute("data-help");
    var box = document.getElementById("help-text");
    if (!box || !help) return;
    var label = el.getAttribute("data-help-title") ||
      (el.tagName === "SELECT" ? (el.options[el.selectedIndex] || {}).text : (el.getAttribute("aria-label") || el.textContent));
    box.innerHTML = "";
    var title = document.createElement("p");
    title.className = "help-title";
    title.textContent = (label || "").trim();
    var body = document.createElement("p");
    body.textContent = help;
    box.appendChild(title);
    box.appendChild(body);
  }
  document.addEventListener("mouseover", showHelp);
  document.addEventListener("focusin", showHelp);

  /* Countdowns (FL-UI-13 wait time, FL-ABN-1 abandonment) from the server's clock. */
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
  /* The board's phase (the phone layout follows it), and the tab: its title and favicon say when
   * a turn or a defense waits ("(1) Your turn — Game 3"). */
  function markPhase() {
    var mark = document.querySelector("[data-phase-mark]");
    var board = document.getElementById("board");
    if (mark && board) board.setAttribute("data-phase", mark.getAttribute("data-phase-mark"));
    if (!mark || !mark.hasAttribute("data-title")) return;
    document.title = mark.getAttribute("data-title");
    var icon = document.querySelector("link[rel=icon]");
    var alert = mark.getAttribute("data-alert");
    if (icon && root) icon.setAttribute("href", alert ? root.getAttribute("data-alert-icon") : "data:,");
  }
  /* The "just now" toast arrives inside the commands panel; it is moved to its host outside the
   * refreshed panels, so the next poll (another player acting re-sends the commands panel) does not
   * remove it before it has faded. A new toast replaces the previous one. */
  function liftToast() {
    var host = document.getElementById("just-now-host");
    if (!host) return;
    document.querySelectorAll("[data-panel] .just-now").forEach(function (toast) {
      toast.parentNode.removeChild(toast);
      host.innerHTML = "";
      host.appendChild(toast);
    });
  }
  /* When the phase changes (a defense comes in, a turn starts) and the commands panel is out of
   * sight, as on a phone after playing a card from the hand further down, it is scrolled into
   * view: the new question is where the player looks. Polls that change nothing else never scroll. */
  var shownPhase = null;
  function followPhase() {
    var mark = document.querySelector("[data-phase-mark]");
    var phase = mark ? mark.getAttribute("data-phase-mark") : null;
    var previous = shownPhase;
    shownPhase = phase;
    if (previous === null || phase === previous) return;
    if (["ready", "move", "core", "defense"].indexOf(phase) < 0 || typing(document.activeElement)) return;
    var panel = document.getElementById("panel-commands");
    if (!panel || !panel.getBoundingClientRect) return;
    var box = panel.getBoundingClientRect();
    var height = window.innerHeight || document.documentElement.clientHeight;
    if (box.top < 0 || box.top > height - 80) panel.scrollIntoView({ block: "start" });
  }
  document.addEventListener("htmx:oobAfterSwap", markPhase);
  document.addEventListener("htmx:afterSettle", function () {
    liftToast();
    markPhase();
    followPhase();
    tick();
    if (aiming) showAim();
    if (!lastFocus) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var again = document.getElementById(lastFocus);
    if (again && !again.disabled) again.focus();
  });

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("fated");
    if (!root) return;
    var serverNow = Number(root.getAttribute("data-server-now"));
    if (serverNow) offset = serverNow - Date.now() / 1000;
    tick();
    markPhase();
    liftToast();
    followPhase();
    setInterval(tick, 1000);
    setInterval(pollDue, 1000);
  });
})();
