/* Live updates: the game's event stream (server-sent events) tells the page when what it shows
 * has changed; the page then fetches its own panels through its poller at once. While the stream
 * is connected the pollers run only as a slow safety net (every 10 s: window.DelveLive.connected); when it
 * drops, the page falls back to polling at its usual pace, says so in #live-status, and connects
 * again after a growing pause (2 s up to 30 s). */
(function () {
  "use strict";

  var live = { connected: false, pause: 2000 };
  window.DelveLive = live;

  /* A notice that arrives while the page's own request (a command) is on its way waits for its
   * answer: that answer brings the panels and the version, so the poll then finds nothing new
   * and leaves the answer's "just now" line in place. */
  var busy = 0, since = 0, waiting = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = event.detail.elt;
    if (isPoll(el)) { el.delvePolling = Date.now(); return; }
    busy += 1;
    since = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var el = event.detail.elt;
    if (isPoll(el)) {
      el.delvePolling = 0;
      // after htmx has let go of this request (it does once this event's handlers have run)
      if (el.delvePollAgain) { el.delvePollAgain = false; setTimeout(function () { pollOne(el); }, 50); }
      return;
    }
    busy = Math.max(0, busy - 1);
    if (busy === 0 && waiting) { waiting = false; setTimeout(pollNow, 50); }
  });
  function isPoll(el) { return el && el.hasAttribute && el.hasAttribute("data-poll-every"); }
  function notice() {
    if (busy > 0 && Date.now() - since > 5000) busy = 0; // a request that never said it ended
    if (busy > 0) { waiting = true; return; }
    pollNow();
  }

  function pollNow() {
    if (!window.htmx) return;
    document.querySelectorAll("[data-poll-every]").forEach(pollOne);
  }

  /* A poller sends one request at a time (hx-sync "this:drop" drops a second one): a poll on its
   * way when a notice arrives may have been answered before the change, so the notice's poll is
   * made once that one is answered, unless it has been on its way for more than 10 s. */
  function pollOne(el) {
    el.delveNextPoll = 0;
    if (el.delvePolling && Date.now() - el.delvePolling < 10000) { el.delvePollAgain = true; return; }
    htmx.trigger(el, "delve:poll");
  }

  function show(state) {
    var root = document.querySelector("[data-live-url]");
    if (root) root.setAttribute("data-live", state);
    var status = document.getElementById("live-status");
    if (status) status.hidden = state !== "polling";
  }

  function connect(url) {
    var source = new EventSource(url);
    var ended = false;
    source.addEventListener("ready", function () {
      live.connected = true;
      live.pause = 2000;
      show("live");
      pollNow(); // anything missed while not connected
    });
    source.addEventListener("changed", notice);
    source.addEventListener("bye", function () { // the stream's lifetime is over: connect again at once
      ended = true;
      source.close();
      connect(url);
    });
    source.onerror = function () {
      if (ended) return;
      source.close();
      live.connected = false;
      // back to the pollers' own pace at once: a poll planned at the safety net's 10 s would
      // leave the screen stale for that long (a poll due sooner keeps its time: a stream that
      // fails again and again must not put the polls off)
      var now = Date.now();
      document.querySelectorAll("[data-poll-every]").forEach(function (el) {
        var due = now + Number(el.getAttribute("data-poll-every")) * 1000;
        if (!el.delveNextPoll || el.delveNextPoll > due) el.delveNextPoll = due;
      });
      show("polling");
      setTimeout(function () { connect(url); }, live.pause);
      live.pause = Math.min(live.pause * 2, 30000);
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-live-url]");
    if (!root) return;
    if (!window.EventSource) { show("polling"); return; }
    connect(root.getAttribute("data-live-url"));
  });
})();
