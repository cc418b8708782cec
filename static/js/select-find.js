/* Type-ahead for long player lists: a select marked data-find gets a search box before it;
   typing keeps only the names that contain what was typed and picks the first of them. The
   select itself is what the form sends, so the page works the same without this script. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return values.reduce(function (out, value) { return out.replace("%s", value); }, text);
  };

  function attach(select) {
    var box = document.createElement("input");
    box.type = "search";
    box.className = "find";
    box.placeholder = gettext("Type a name");
    box.setAttribute("aria-label", select.labels[0]
      ? interpolate(gettext("Find a player for %s"), [select.labels[0].textContent])
      : gettext("Find a player for this seat"));
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
