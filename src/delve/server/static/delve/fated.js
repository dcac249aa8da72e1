/* The Fated Labyrinth screen: keyboard moves, tile selection, countdowns, command help and the
 * phone layout's phase. What both screens share (polling, signatures, focus, the tab) is screen.js.
 * Plain JavaScript; htmx does the requests. */
(function () {
  "use strict";

  var root = null;
  var KEYS = {
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
    w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right"
  };

  var typing = window.Delve.typing; // screen.js

  /* A click is never redirected to a button that replaced the one aimed at (screen.js): the
   * commands and the quick moves also take no click while the page's opening (FL-TURN-8,
   * #opener) is on its way, since its answer replaces them (the board's data-opening). */
  window.Delve.guardPanels(["panel-commands", "panel-quickmove"],
    ".board[data-opening] #panel-commands, .board[data-opening] #panel-quickmove");
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "opener") return;
    var board = document.getElementById("board");
    if (board) board.removeAttribute("data-opening");
  });

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

  /* FL-UI-8: the help of the command under the pointer or the keyboard focus. A tap on a touch
   * screen sends mouseover and focus before its click, each aimed anew at what is under the
   * finger: help put in at once would show or resize the help panel (hidden on touch until then,
   * fated.css) and move the page under the finger, and the click would land elsewhere (a lost
   * tap). So a touch's help waits for its click to have done its work, and then shows. */
  var touching = false, pendingHelp = null;
  document.addEventListener("touchstart", function () { touching = true; pendingHelp = null; }, { passive: true, capture: true });
  window.addEventListener("click", function () {
    if (!touching) return;
    setTimeout(function () {
      touching = false;
      var el = pendingHelp;
      pendingHelp = null;
      if (el && document.contains(el)) renderHelp(el);
    }, 0);
  }, true);
  document.addEventListener("keydown", function () { touching = false; });
  function showHelp(event) {
    var el = event.target.closest && event.target.closest("[data-help]");
    if (!el) return;
    if (touching) { pendingHelp = el; return; }
    renderHelp(el);
  }
  function renderHelp(el) {
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
    var keys = el.getAttribute("data-help-keys");
    if (keys) { // a keyboard shortcut: left out on a touch screen (site.css)
      var hint = document.createElement("p");
      hint.className = "keys-hint";
      hint.textContent = keys;
      box.appendChild(hint);
    }
  }
  document.addEventListener("mouseover", showHelp);
  document.addEventListener("focusin", showHelp);

  /* The board's phase (the phone layout follows it); the tab's title and icon are screen.js's. */
  function markPhase() {
    var mark = document.querySelector("[data-phase-mark]");
    var board = document.getElementById("board");
    if (mark && board) board.setAttribute("data-phase", mark.getAttribute("data-phase-mark"));
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
  /* The toast is fixed in the window but over no control: it takes the first place, at the top,
   * at the bottom, then anywhere from the top down (centred, then at the right or left edge),
   * where it covers no button, link, field or map tile, nor what the player reads first: the
   * command panel's heading (the phase: "Defense phase", "Move phase 2/3"), the attack to defend
   * against and its effect, a refusal, any panel's heading (全体マップ) and the HP/CP bars;
   * and preferably no card of the hand. Else the place
   * covering least, the heading and the defense line weighing most (it never takes a click:
   * pointer-events: none). It looks again after the page scrolled or the window changed size,
   * until it has faded. */
  var CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, " +
    "[tabindex]:not([tabindex='-1']), [data-help]";
  var READ_FIRST = "#panel-commands h2, #panel-commands .defending, #panel-commands .defending-effect, " +
    "#panel-commands .refusal, .board .panel h2, #panel-status .bar";
  function obstacles(height) {
    var found = [];
    function add(el, weight) {
      if (el.closest(".just-now")) return;
      var r = el.getBoundingClientRect();
      if (r.width && r.height && r.bottom > 0 && r.top < height) found.push({ r: r, w: weight });
    }
    document.querySelectorAll(CONTROLS).forEach(function (el) { if (!el.matches("li.card")) add(el, 100); });
    document.querySelectorAll("li.card").forEach(function (el) { add(el, 1); });
    document.querySelectorAll(READ_FIRST).forEach(function (el) { add(el, 10000); });
    return found;
  }
  function cost(found, left, top, width, height) {
    var right = left + width, bottom = top + height, total = 0;
    for (var i = 0; i < found.length; i++) {
      var r = found[i].r;
      if (r.bottom <= top || r.top >= bottom || r.right <= left || r.left >= right) continue;
      total += found[i].w * (Math.min(r.right, right) - Math.max(r.left, left)) * (Math.min(r.bottom, bottom) - Math.max(r.top, top));
    }
    return total;
  }
  function placeToast() {
    var toast = document.querySelector("#just-now-host .just-now");
    if (!toast || toast.classList.contains("faded")) return;
    toast.classList.remove("at-left", "at-right");
    toast.style.top = "";
    var box = toast.getBoundingClientRect();
    var vw = document.documentElement.clientWidth, vh = window.innerHeight, gap = 8;
    var found = obstacles(vh);
    var lowest = Math.max(gap, vh - box.height - gap);
    var tops = [gap, lowest];
    for (var y = gap + 8; y < lowest; y += 8) tops.push(y);
    var sides = [["", (vw - box.width) / 2], ["at-right", vw - gap - box.width], ["at-left", gap]];
    var best = null;
    for (var i = 0; i < tops.length && !(best && best.cost === 0); i++) {
      for (var j = 0; j < sides.length; j++) {
        var c = cost(found, sides[j][1], tops[i], box.width, box.height);
        if (!best || c < best.cost) best = { cost: c, top: tops[i], side: sides[j][0] };
        if (c === 0) break;
      }
    }
    if (best.side) toast.classList.add(best.side);
    toast.style.top = best.top + "px";
  }
  var placing = null;
  function placeSoon() {
    if (placing) clearTimeout(placing);
    placing = setTimeout(function () { placing = null; placeToast(); }, 120);
  }
  window.addEventListener("scroll", placeSoon, { passive: true });
  window.addEventListener("resize", placeSoon);
  document.addEventListener("animationend", function (event) {
    if (event.target.classList && event.target.classList.contains("just-now")) event.target.classList.add("faded");
  });

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
  /* A refresh keeps the commands panel (and the hand in it) when what the player can choose is
   * the same: a panel rebuilt under a finger about to tap loses the tap. The counters and the
   * targets' tiles that moved on come apart (#commands-in-place, fated_screen.in_place) and are
   * written into the panel here. */
  function writeInPlace() {
    var values = document.getElementById("commands-in-place");
    var panel = document.getElementById("panel-commands");
    if (!values || !panel) return;
    values.querySelectorAll("[data-in-place-for]").forEach(function (value) {
      panel.querySelectorAll("[data-in-place]").forEach(function (el) {
        if (el.getAttribute("data-in-place") === value.getAttribute("data-in-place-for") &&
            el.textContent !== value.textContent) el.textContent = value.textContent;
      });
    });
    var title = values.querySelector("[data-tab-title]"), mark = panel.querySelector("[data-phase-mark][data-title]");
    if (title && mark && mark.getAttribute("data-title") !== title.getAttribute("data-tab-title")) {
      mark.setAttribute("data-title", title.getAttribute("data-tab-title"));
      window.Delve.markTab();
    }
    var tiles = {};
    values.querySelectorAll("[data-aim-for]").forEach(function (value) {
      tiles[value.getAttribute("data-aim-for")] = value.getAttribute("data-aim-tile");
    });
    panel.querySelectorAll("form.use input[name=command]").forEach(function (input) {
      var tile = tiles[input.value];
      var button = input.form && input.form.querySelector("[data-aim-tile]");
      if (button && tile && button.getAttribute("data-aim-tile") !== tile) button.setAttribute("data-aim-tile", tile);
    });
  }
  document.addEventListener("htmx:oobAfterSwap", markPhase);
  document.addEventListener("htmx:afterSettle", function () {
    liftToast();
    markPhase();
    writeInPlace();
    followPhase();
    placeToast();
    if (aiming) showAim();
  });

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("fated");
    if (!root) return;
    markPhase();
    liftToast();
    followPhase();
    placeToast();
  });
})();
