/* The offer of this device's time zone (notify/_zone_offer.html): shown while the player has not
 * chosen a zone, and only when the browser's zone (Intl) differs from the one the pages use. The
 * preference page's zone select gets a "use this device's zone" button beside it. Plain script,
 * no inline code (the Content-Security-Policy forbids it). */
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    zone = "";
  }
  if (!zone) return;
  /* Two names of one clock (Etc/UTC and UTC, Asia/Calcutta and Asia/Kolkata) tell the same time
   * all year: the offer would change nothing, so it is not made. */
  function sameClock(a, b) {
    var year = new Date().getFullYear();
    try {
      return [0, 6].every(function (month) {
        var when = new Date(Date.UTC(year, month, 1, 12));
        var options = { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
        options.timeZone = a;
        var first = new Intl.DateTimeFormat("en-US", options).format(when);
        options.timeZone = b;
        return first === new Intl.DateTimeFormat("en-US", options).format(when);
      });
    } catch (e) {
      return false;
    }
  }
  var offer = document.querySelector("form.zone-offer");
  if (offer && zone !== offer.getAttribute("data-current") && !sameClock(zone, offer.getAttribute("data-current"))) {
    var use = offer.querySelector(".zone-offer-use");
    var text = offer.querySelector(".zone-offer-text");
    use.value = zone;
    text.textContent = offer.getAttribute("data-ask")
      .replace("{current}", offer.getAttribute("data-current"))
      .replace("{zone}", zone);
    offer.hidden = false;
  }
  var select = document.querySelector("select[data-device-zone]");
  if (select) {
    var button = document.querySelector("button.device-zone");
    var known = Array.prototype.some.call(select.options, function (o) { return o.value === zone; });
    if (button && known && select.value !== zone) {
      button.textContent = button.getAttribute("data-label").replace("{zone}", zone);
      button.hidden = false;
      button.addEventListener("click", function () {
        select.value = zone;
        button.hidden = true;
        select.focus();
      });
    }
  }
})();
