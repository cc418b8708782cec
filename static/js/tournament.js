/* Tournament pages: the create form's prize preview for a field, and swapping two players of a
   drawn round by tapping one, then the other (the form below the cards does the same without
   script). */
(function () {
  "use strict";

  function previewPrizes(form) {
    var target = document.getElementById("prize-preview");
    var field = document.getElementById("t-field");
    if (!target || !field) return;
    var timer = null;
    function refresh() {
      var query = new URLSearchParams({
        payout: form.elements.payout.value,
        custom: form.elements.custom_payout.value,
        entries: field.value,
        fee: form.elements.entry_fee.value,
        club_fee: form.elements.club_fee.value,
      });
      fetch(form.dataset.previewUrl + "?" + query.toString(), { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) target.innerHTML = html; });
    }
    function later() { clearTimeout(timer); timer = setTimeout(refresh, 250); }
    ["payout", "custom_payout", "entry_fee", "club_fee"].forEach(function (name) {
      form.elements[name].addEventListener("input", later);
    });
    field.addEventListener("input", later);
  }

  function tapToSwap(cards) {
    var form = document.getElementById("swap-form");
    if (!form) return;
    var first = null;
    cards.addEventListener("click", function (event) {
      var seat = event.target.closest("button.seat");
      if (!seat) return;
      if (first === null) {
        first = seat;
        seat.setAttribute("aria-pressed", "true");
        return;
      }
      if (first === seat) {
        seat.setAttribute("aria-pressed", "false");
        first = null;
        return;
      }
      seat.setAttribute("aria-pressed", "true");
      form.elements.first.value = first.dataset.player;
      form.elements.second.value = seat.dataset.player;
      form.submit();
    });
  }

  /* The desk's live grid: when the tournament or a round changes state (a round complete, the
     final over), the rest of the desk (its status, the draw, the round clock, the places) is
     out of date: the desk is read again. */
  function followDeskState(live) {
    var marker = live.querySelector("[data-desk-state]");
    if (!marker) return;
    var state = marker.dataset.deskState;
    // A change the director's own button made: its answer is the new desk (and its message).
    var leaving = false;
    document.addEventListener("submit", function () { leaving = true; }, true);
    window.addEventListener("beforeunload", function () { leaving = true; });
    live.addEventListener("live:updated", function () {
      var now = live.querySelector("[data-desk-state]");
      if (!leaving && now && now.dataset.deskState !== state) {
        leaving = true;
        window.location.reload();
      }
    });
  }

  function start() {
    var live = document.getElementById("grid-live");
    if (live) followDeskState(live);
    var form = document.getElementById("tournament-form");
    if (form) previewPrizes(form);
    var cards = document.querySelector(".table-cards");
    if (cards) tapToSwap(cards);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
