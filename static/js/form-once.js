/* A form with a token (data-form-once) does its work once: the server keeps each token's answer.
   Going back to a form already sent, the browser restores what was typed but the page comes with
   a new token; this puts back the token the form was sent with, so sending it again replays the
   first answer instead of doing the work twice. */
(function () {
  "use strict";

  Array.prototype.forEach.call(document.querySelectorAll("input[data-form-once]"), function (input) {
    var key = "form-once:" + location.pathname;
    var navigation = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || {};
    try {
      var sent = sessionStorage.getItem(key);
      if (navigation.type === "back_forward" && sent) input.value = sent;
      if (input.form) {
        input.form.addEventListener("submit", function () { sessionStorage.setItem(key, input.value); });
      }
    } catch (error) {
      /* storage refused (private mode): the server still stops a double tap */
    }
  });
})();
