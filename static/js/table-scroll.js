/* A table wider than its box scrolls inside it (.table-wrap): a keyboard has to reach it to
   scroll it, so while it overflows the box is a tab stop, named after its table. Which tables
   overflow depends on the language (German and Dutch headings are longer) and the width, so it
   is decided in the page, again when the window is resized or a live part brings new tables. */
(function () {
  "use strict";

  function name(wrap) {
    var table = wrap.querySelector("table");
    var caption = table && table.caption;
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    var labelled = wrap.closest("[aria-labelledby]");
    var heading = labelled && document.getElementById(labelled.getAttribute("aria-labelledby"));
    return heading ? heading.textContent.trim() : "";
  }

  function mark() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var overflows = wrap.scrollWidth > wrap.clientWidth;
      if (overflows && !wrap.hasAttribute("tabindex")) {
        wrap.dataset.scrollStop = "";
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        var label = name(wrap);
        if (label) wrap.setAttribute("aria-label", label);
      } else if (!overflows && "scrollStop" in wrap.dataset) {
        ["tabindex", "role", "aria-label", "data-scroll-stop"].forEach(function (a) {
          wrap.removeAttribute(a);
        });
      }
    });
  }

  var pending = false;
  function soon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; mark(); });
  }

  mark();
  window.addEventListener("resize", soon);
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
})();
