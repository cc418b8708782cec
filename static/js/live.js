/* Live parts of a page: an element with data-live-url is replaced by that URL's HTML every
   data-live-every seconds (default 5) while the page is visible. The server answers with the
   header X-Live-Stop when nothing more will change (a closed session, a decided deal). */
(function () {
  "use strict";

  function watch(node) {
    var url = node.dataset.liveUrl;
    var every = Math.max(1, Number(node.dataset.liveEvery) || 5) * 1000;
    var last = null;
    var timer = null;
    var stopped = false;

    function later() {
      clearTimeout(timer);
      timer = setTimeout(tick, every);
    }

    function tick() {
      if (document.visibilityState === "hidden") return later();
      fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (response) {
          var stop = response.headers.get("X-Live-Stop");
          return response.text().then(function (html) {
            if (response.ok && html !== last) {
              last = html;
              node.innerHTML = html;
              node.dataset.liveUpdated = String(Date.now());
              node.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
            }
            if (stop || response.status === 404 || response.status === 403) {
              stopped = true;
              return;
            }
            later();
          });
        })
        .catch(later);
    }

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && !stopped) {
        clearTimeout(timer);
        tick();
      }
    });
    later();
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-url]"), watch);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
