/* The White Maiden screen: keyboard shortcuts, clicks on the map's lit rooms and the deadline
 * countdown. What both screens share (polling, signatures, focus, the tab) is screen.js. Plain
 * JavaScript; htmx does the requests. Every command sent is one the server rendered (data-command / a button's form). */
(function () {
  "use strict";


  var typing = window.Delve.typing; // screen.js

  /* A click is never redirected to a button swapped in under it (screen.js): the decision panel,
   * re-rendered by a refresh while the player taps it (helping on a partner's turn), takes no
   * pointer click for a moment after the swap. */
  window.Delve.guardPanels(["panel-decide"]);

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

  /* A set of dice to tick (reroll any number): the exact chance of the ticked set, from the
   * table the server rendered (data-odds: "0,2" -> percent, fraction, colour band); the best set
   * stays named while the ticked set is not one of the legal picks. */
  /* A die and a face to set it to (Verdict): the same line, keyed "die:face". */
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box || (box.name !== "pick_dice" && box.name !== "pick_die" && box.name !== "pick_face")) return;
    var form = box.form;
    var line = form && form.querySelector(".pick-odds[data-odds]");
    if (!line) return;
    var table = JSON.parse(line.getAttribute("data-odds"));
    var key;
    if (box.name === "pick_dice") {
      var ticked = [];
      form.querySelectorAll("input[name=pick_dice]:checked").forEach(function (b) { ticked.push(Number(b.value)); });
      ticked.sort(function (a, b) { return a - b; });
      key = ticked.join(",");
    } else {
      key = form.querySelector("select[name=pick_die]").value + ":" + form.querySelector("select[name=pick_face]").value;
    }
    var found = table[key];
    var best = line.querySelector(".pick-best");
    var mine = line.querySelector(".pick-ticked");
    var odds = mine.querySelector(".odds");
    best.hidden = !!found;
    mine.hidden = !found;
    if (found) {
      odds.className = "odds " + found.level;
      odds.textContent = found.percent;
      odds.title = found.fraction;
      odds.setAttribute("data-p", found.fraction);
      var note = mine.querySelector(".pick-note");
      if (note) {
        note.textContent = found.note || "";
        note.hidden = !found.note;
      }
    }
  });

  /* R roll, B the suggested ascension (none is bound when a use is suggested), E resolve, S stay, 1-9 the listed rooms or options. */
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

  /* After the player's own decision (a button of the decision panel, or a lit room on the map)
   * the answer may ask the same seat again, and on a phone the new panel's first button is then
   * often out of sight (a tap far down a long list, or on the map below it): the decision panel
   * is scrolled to the top of the window unless its first button can already be seen, as the
   * Fated Labyrinth screen does at a new phase (fated.js). Polls never scroll. */
  var acting = null; // the request of the player's own decision, until its answer is settled
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.closest && (elt.id === "act-form" || elt.closest("#panel-decide"))) acting = event.detail.xhr;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!acting || !event.detail || event.detail.xhr !== acting) return;
    acting = null;
    if (typing(document.activeElement)) return;
    var panel = document.getElementById("panel-decide");
    var first = panel && panel.querySelector("form.cmd button");
    if (!first || !first.getBoundingClientRect) return;
    var box = first.getBoundingClientRect();
    var height = window.innerHeight || document.documentElement.clientHeight;
    if (box.top < 0 || box.bottom > height) panel.scrollIntoView({ block: "start" });
  });

  /* A lit room tapped on a touch screen is first only picked: the room (on the map and in the
   * zoom) and its move button are marked, and a line under the map says what the room is, with
   * "Move here"; a second tap on it, or that button, moves. A mouse click moves at once. */
  var pointer = "mouse";
  document.addEventListener("pointerdown", function (event) { pointer = event.pointerType || "mouse"; }, true);

  function mark(roomId) {
    document.querySelectorAll("svg.tree g.room.picked, ul.moves li.picked").forEach(function (el) {
      el.classList.remove("picked");
    });
    if (!roomId) return;
    document.querySelectorAll('svg.tree g.room[data-room="' + roomId + '"], ul.moves li[data-room="' + roomId + '"]')
      .forEach(function (el) { el.classList.add("picked"); });
  }

  function pickLine(room) {
    var box = room.closest(".map-zoom, section");
    return box && box.querySelector(".map-pick");
  }

  function pickRoom(room) {
    document.querySelectorAll(".map-pick").forEach(function (line) { line.hidden = true; });
    mark(room ? room.getAttribute("data-room") : "");
    var line = room && pickLine(room);
    if (!line) return;
    line.querySelector(".map-pick-info").textContent = room.getAttribute("aria-label") || "";
    line.querySelector(".map-pick-go").setAttribute("data-go", room.getAttribute("data-command"));
    line.hidden = false;
  }

  /* A decision that names a room from a long list: the chosen room is marked on the map, and a
   * tap on a room of the list (on the map) chooses it in the list. */
  function roomSelect() {
    return document.querySelector("#panel-decide select[data-rooms]");
  }
  function markSelected() {
    var select = roomSelect();
    document.querySelectorAll("svg.tree g.room.listed").forEach(function (el) { el.classList.remove("listed"); });
    if (!select) return;
    select.querySelectorAll("option[data-room]").forEach(function (option) {
      var room = document.querySelector('#panel-map g.room[data-room="' + option.getAttribute("data-room") + '"]');
      if (room) room.classList.add("listed");
    });
    var option = select.options[select.selectedIndex];
    mark(option ? option.getAttribute("data-room") : "");
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.matches && event.target.matches("select[data-rooms]")) markSelected();
  });
  document.addEventListener("htmx:afterSettle", markSelected);
  document.addEventListener("DOMContentLoaded", markSelected);

  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var go = event.target.closest(".map-pick-go");
    if (go) {
      send(go.getAttribute("data-go"));
      return;
    }
    if (event.target.closest(".map-pick-off")) {
      pickRoom(null);
      return;
    }
    var select = roomSelect();
    var listed = select && event.target.closest("svg.tree g.room[data-room]");
    if (listed) {
      var option = select.querySelector('option[data-room="' + listed.getAttribute("data-room") + '"]');
      if (option) {
        select.value = option.value;
        markSelected();
        return;
      }
    }
    var room = event.target.closest("[data-command]");
    if (!room) return;
    event.preventDefault();
    if (pointer === "mouse" || room.classList.contains("picked")) {
      send(room.getAttribute("data-command"));
    } else {
      pickRoom(room);
    }
  });

})();
