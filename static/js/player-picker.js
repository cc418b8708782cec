/* Type-ahead for a roster player: an input marked data-picker="<players API URL>" gets, as the
   user types, the names of one page of players whose name starts with what was typed, as the
   suggestions of its datalist. The input sends the name itself, so the page works the same
   without this script (the server finds the player by name, or says why not). */
(function () {
  "use strict";

  var WAIT_MS = 150;

  function attach(input) {
    var list = document.getElementById(input.getAttribute("list"));
    if (!list) return;
    var url = input.dataset.picker;
    var timer = null;
    var asked = null;

    function fill(players) {
      list.textContent = "";
      players.forEach(function (player) {
        var option = document.createElement("option");
        option.value = player.name;
        if (!player.active) option.label = player.name + " (retired)";
        list.appendChild(option);
      });
    }

    var pending = null;

    function ask() {
      var text = input.value.trim();
      if (text === asked) return;
      asked = text;
      // Only the answer to what is typed now is wanted: an earlier question still on its way
      // is called off, so a slow answer to a shorter text can never replace a newer list.
      if (pending) pending.abort();
      pending = typeof AbortController === "function" ? new AbortController() : null;
      var query = (url.indexOf("?") === -1 ? "?" : "&") + "search=" + encodeURIComponent(text);
      fetch(url + query, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
        signal: pending ? pending.signal : undefined,
      })
        .then(function (response) {
          if (!response.ok) throw new Error("players answered " + response.status);
          return response.json();
        })
        .then(function (body) {
          if (input.value.trim() !== text) return;
          fill(body.results || []);
          // Which text the suggestions answer, for anything that waits on them.
          input.dataset.suggestedFor = text;
        })
        .catch(function () {
          // Not answered (called off, offline, refused): the next keystroke or focus asks again.
          if (asked === text) asked = null;
        });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(ask, WAIT_MS);
    });
    input.addEventListener("focus", ask);
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("input[data-picker]"), attach);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
