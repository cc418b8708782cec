// The import's page: the progress bar follows the background task until it is done, cancelled
// or failed, then the page loads again to show how it ended.
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var panel = document.getElementById("import-progress");
  if (!panel) return;
  var bar = document.getElementById("import-bar");
  var written = document.getElementById("import-written");
  var state = document.getElementById("import-state");
  var url = panel.getAttribute("data-progress-url");
  var labels = {
    queued: gettext("Waiting to start"), running: gettext("Being written"), done: gettext("Imported"),
    cancelled: gettext("Cancelled, nothing stored"), failed: gettext("Failed, nothing stored")
  };
  function live(status) { return status === "queued" || status === "running"; }
  if (!live(panel.getAttribute("data-status"))) return;
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (progress) {
        bar.max = progress.total;
        bar.value = progress.written;
        bar.textContent = progress.written + " / " + progress.total;
        written.textContent = progress.written;
        state.textContent = labels[progress.status] || progress.status;
        if (live(progress.status)) {
          window.setTimeout(poll, 1000);
        } else {
          window.location.reload();
        }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  window.setTimeout(poll, 500);
})();
