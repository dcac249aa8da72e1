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
  var offer = document.querySelector("form.zone-offer");
  if (offer && zone !== offer.getAttribute("data-current")) {
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
