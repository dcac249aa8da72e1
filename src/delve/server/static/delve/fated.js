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
      if (aiming) showTargets();
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

  /* The map on a phone (the one-column layout, fated.css): large tiles in a window that scrolls
   * both ways. The window follows the player's piece: centred on it when the page opens, when the
   * piece moved and when the zoom is turned back on; a refresh that redraws the map without the
   * piece moving keeps where the player had scrolled to. "Whole board" fits the map to the width
   * (remembered in this browser). Only the map's own window scrolls here, never the page. */
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 759px)") : { matches: false };
  var MAP_VIEW = "delve.fated.map-view";
  var mapScroll = null, lastYou = null;
  function storedView() {
    try { return window.localStorage.getItem(MAP_VIEW); } catch (e) { return null; }
  }
  function showMapView() {
    var board = document.getElementById("board");
    if (!board) return;
    var whole = storedView() === "whole";
    if (whole) board.setAttribute("data-map-view", "whole"); else board.removeAttribute("data-map-view");
    document.querySelectorAll(".map-view-toggle").forEach(function (el) { el.setAttribute("aria-pressed", whole ? "true" : "false"); });
  }
  function mapWindow() {
    var wrap = document.querySelector("#panel-map .map-wrap");
    if (!wrap || (wrap.scrollWidth <= wrap.clientWidth + 1 && wrap.scrollHeight <= wrap.clientHeight + 1)) return null;
    return wrap;
  }
  function youCell() {
    var token = document.querySelector("#panel-map .map .tok.you");
    return token ? token.closest(".cell") : null;
  }
  function centreOn(wrap, x, y) { // x, y: a point of the map, relative to the window's content
    wrap.scrollLeft = Math.max(0, x - wrap.clientWidth / 2);
    wrap.scrollTop = Math.max(0, y - wrap.clientHeight / 2);
    mapScroll = { left: wrap.scrollLeft, top: wrap.scrollTop };
  }
  function pointOf(wrap, cell) {
    var w = wrap.getBoundingClientRect(), c = cell.getBoundingClientRect();
    return [c.left - w.left + wrap.scrollLeft + c.width / 2, c.top - w.top + wrap.scrollTop + c.height / 2];
  }
  function placeMap(recentre) {
    var cell = youCell();
    var at = cell ? cell.getAttribute("data-x") + "," + cell.getAttribute("data-y") : null;
    var wrap = mapWindow();
    if (wrap) {
      if (recentre || at !== lastYou || !mapScroll) {
        var target = cell || document.querySelector("#panel-map .map .cell:nth-child(" + Math.ceil(wrap.querySelectorAll(".cell").length / 2) + ")");
        if (target) { var p = pointOf(wrap, target); centreOn(wrap, p[0], p[1]); }
      } else if (wrap.scrollLeft !== mapScroll.left || wrap.scrollTop !== mapScroll.top) {
        wrap.scrollLeft = mapScroll.left;
        wrap.scrollTop = mapScroll.top;
      }
    }
    lastYou = at;
  }
  /* Picking a card's target: the map's window shows the targets (centred on them together). */
  function showTargets() {
    var wrap = mapWindow();
    var cells = document.querySelectorAll("#panel-map .map .cell.aim-target");
    if (!wrap || !cells.length) return;
    var box = null;
    cells.forEach(function (cell) {
      var p = pointOf(wrap, cell);
      box = box ? [Math.min(box[0], p[0]), Math.min(box[1], p[1]), Math.max(box[2], p[0]), Math.max(box[3], p[1])] : [p[0], p[1], p[0], p[1]];
    });
    centreOn(wrap, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  }
  document.addEventListener("scroll", function (event) {
    var wrap = event.target;
    if (wrap && wrap.classList && wrap.classList.contains("map-wrap") && mapWindow() === wrap) {
      mapScroll = { left: wrap.scrollLeft, top: wrap.scrollTop };
    }
  }, true);
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".map-view-toggle");
    if (!toggle) return;
    try { window.localStorage.setItem(MAP_VIEW, storedView() === "whole" ? "zoom" : "whole"); } catch (e) { /* private mode */ }
    showMapView();
    placeMap(true);
    markMoves();
  });

  /* FL-UI-1, FL-MOVE-8: on a phone's zoomed map, in the move phase, the tiles next to the piece
   * that a quick move would go to get a dashed ring, and a tap on one presses that quick-move button (a known
   * enemy trap is left out: a tap there only shows what it is; the pad still moves there). A tap
   * within a moment of the rings changing (a refresh, the piece moved) is held back, as on the
   * panels (screen.js): the ring under the finger may have just moved. */
  var STEPS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  var movesShown = "", movesChangedAt = 0;
  function markMoves() {
    document.querySelectorAll("#panel-map .map .cell.move-target").forEach(function (el) {
      el.classList.remove("move-target");
      el.removeAttribute("data-move");
    });
    var board = document.getElementById("board");
    var cell = youCell();
    if (!narrow.matches || !board || board.getAttribute("data-phase") !== "move" || !cell ||
        board.getAttribute("data-map-view") === "whole") return; // the whole board's tiles are too small
    var x = Number(cell.getAttribute("data-x")), y = Number(cell.getAttribute("data-y"));
    Object.keys(STEPS).forEach(function (dir) {
      var button = document.getElementById("qm-" + dir);
      if (!button || button.disabled) return;
      var next = cellAt((x + STEPS[dir][0]) + "," + (y + STEPS[dir][1]));
      if (!next || next.tagName !== "BUTTON" || next.classList.contains("t-enemy-trap")) return;
      next.classList.add("move-target");
      next.setAttribute("data-move", dir);
    });
    var shown = Array.prototype.map.call(document.querySelectorAll("#panel-map .map .cell.move-target"), function (el) {
      return el.getAttribute("data-x") + "," + el.getAttribute("data-y") + el.getAttribute("data-move");
    }).join(" ");
    if (shown !== movesShown) { movesShown = shown; movesChangedAt = Date.now(); }
  }
  function moveByTap(cell) {
    var board = document.getElementById("board");
    if (!cell.classList.contains("move-target") || !board || board.hasAttribute("data-aiming")) return false;
    var button = document.getElementById("qm-" + cell.getAttribute("data-move"));
    if (Date.now() - movesChangedAt < 400 || !button || button.disabled ||
        button.closest(".board[data-opening]")) return true; // held back
    if (window.htmx && button.form) htmx.process(button.form);
    button.click();
    return true;
  }
  /* The caption under the phone's map names the tile tapped (its label: place, terrain,
   * remembered or not, who stands there), remembered tiles out of sight included. */
  var captioned = null; // the tile named, named again after a refresh redrew the map
  function caption(cell) {
    var line = document.querySelector("#panel-map .map-caption");
    if (!line || !cell) return;
    captioned = cell.getAttribute("data-x") + "," + cell.getAttribute("data-y");
    line.removeAttribute("data-hint");
    line.textContent = cell.getAttribute("aria-label") || cell.getAttribute("title") || "";
  }
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest(".map .cell[data-x]:not(button)");
    if (cell) caption(cell);
  });

  /* FL-UI-1/2: a click on a tile in sight loads its details. */
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("button.cell[data-x]");
    if (!cell || !root) return;
    if (moveByTap(cell)) return;
    caption(cell);
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
    box.scrollTop = 0; // a phone's help keeps one height and scrolls inside (fated.css)
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
  function afterMapSwap() {
    showMapView();
    placeMap(false);
    markMoves();
    var line = document.querySelector("#panel-map .map-caption");
    if (captioned && line && line.hasAttribute("data-hint")) caption(cellAt(captioned));
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    markPhase();
    if (event.target && event.target.id === "panel-map") afterMapSwap();
  });
  if (narrow.addEventListener) narrow.addEventListener("change", function () { placeMap(true); markMoves(); });
  document.addEventListener("htmx:afterSettle", function () {
    liftToast();
    markPhase();
    afterMapSwap();
    writeInPlace();
    followPhase();
    placeToast();
    if (aiming) showAim();
  });

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("fated");
    if (!root) return;
    markPhase();
    showMapView();
    placeMap(true);
    markMoves();
    liftToast();
    followPhase();
    placeToast();
  });
})();
