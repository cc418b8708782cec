/* A "Copy" button copies the text of the element its data-copy names, and says so. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.querySelector(button.dataset.copy);
    if (!source || !navigator.clipboard) return;
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = gettext("Copied");
    });
  });
})();
