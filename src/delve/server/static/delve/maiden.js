/* The White Maiden screen: keyboard shortcuts, clicks on the map's lit rooms and the deadline
 * countdown. What both screens share (polling, signatures, focus, the tab) is screen.js. Plain
 * JavaScript; htmx does the requests. Every command sent is one the server rendered (data-command / a button's form). */
(function () {
  "use strict";


  var typing = window.Delve.typing; // screen.js

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

})();
