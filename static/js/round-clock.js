/* The round clock on the tournament projector: the element with data-seconds-left (the time
   left when the server answered) counts down each second; a live update brings a fresh one. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };

  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-seconds-left]"), function (node) {
      if (!node.dataset.shownAt) node.dataset.shownAt = String(Date.now());
      var elapsed = Math.floor((Date.now() - Number(node.dataset.shownAt)) / 1000);
      var left = Math.max(0, Number(node.dataset.secondsLeft) - elapsed);
      var shown = node.querySelector(".clock-left");
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (shown && shown.textContent !== text) shown.textContent = text;
      if (left === 0) {
        node.classList.add("over");
        var word = node.querySelector(".clock-word");
        if (word) word.textContent = gettext("time");
      }
    });
  }

  setInterval(tick, 1000);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
})();
