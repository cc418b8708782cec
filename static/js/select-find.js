/* Type-ahead for long player lists: a select marked data-find gets a search box before it;
   typing keeps only the names that contain what was typed and picks the first of them. The
   select itself is what the form sends, so the page works the same without this script. */
(function () {
  "use strict";

  function attach(select) {
    var box = document.createElement("input");
    box.type = "search";
    box.className = "find";
    box.placeholder = "Type a name";
    box.setAttribute("aria-label", "Find a player for " + (select.labels[0] ? select.labels[0].textContent : "this seat"));
    select.parentNode.insertBefore(box, select);
    box.addEventListener("input", function () {
      var wanted = box.value.trim().toLowerCase();
      var first = null;
      Array.prototype.forEach.call(select.options, function (option) {
        var match = !wanted || option.value === "" || option.text.toLowerCase().indexOf(wanted) !== -1;
        option.hidden = !match;
        if (match && option.value !== "" && first === null) first = option;
      });
      if (wanted && first) select.value = first.value;
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("select[data-find]"), attach);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
