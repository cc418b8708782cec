/* The preset form previews what a deal would score as the organiser types. */
(function () {
  "use strict";
  function start() {
    var target = document.getElementById("preset-preview");
    if (!target) return;
    var form = target.closest("form");
    var timer = null;
    function refresh() {
      var query = new URLSearchParams({
        format: form.elements.format.value,
        variant: form.elements.variant.value,
        params: form.elements.params.value,
      });
      fetch(target.dataset.url + "?" + query.toString(), { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) target.innerHTML = html; });
    }
    ["format", "variant", "params"].forEach(function (name) {
      form.elements[name].addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(refresh, 300);
      });
    });
    refresh();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
