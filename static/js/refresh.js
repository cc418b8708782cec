/* A screen that only shows (a projector): the element with data-refresh-every (seconds) is
   replaced, that often while the page is visible, by the element of the same id in the page
   fetched again. The page itself is never reloaded, so nothing flashes and a reader of the
   screen keeps its place (a timed reload of the whole page is what WCAG 2.2.1 forbids); an
   answer that is not the page (an error, the login page) leaves the element as it was. */
(function () {
  "use strict";

  function refresh(part) {
    if (document.hidden) return;
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok && !answer.redirected ? answer.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(part.id);
        if (fresh) part.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* offline: the screen keeps what it shows until the next turn */ });
  }

  document.querySelectorAll("[data-refresh-every]").forEach(function (part) {
    var every = Math.max(5, parseInt(part.getAttribute("data-refresh-every"), 10) || 30);
    window.setInterval(function () { refresh(part); }, every * 1000);
  });
})();
