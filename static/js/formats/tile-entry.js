/* Tile games' result entry (Rummikub's racks, Okey's indicator and finished hand): the tiles
   typed are shown as tiles with their colour letter (and the colour's name for screen readers),
   with a count and what a rack counts, or the count out of the size a field asks for
   (data-tiles-size); unknown tiles are named. The fields that do not apply (who moved last when
   someone went out, how an International hand was won when nobody did, the closed hand unless
   the win was Closed, Okey's finish when nobody finished) are hidden. The summary line's words
   come from the form (data-say-*), in the page's language. Without this script every field
   shows and the form posts what was typed. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return values.reduce(function (out, value) { return out.replace("%s", value); }, text);
  };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };

  var form = document.getElementById("rack-form");
  if (!form) return;

  /* The rules engine's tiles, as the server gives them (each format's entry rules): every
     spelling it reads, upper case, with its colour, number, name and what it counts left on a
     rack (Okey's: null, a tile left counts nothing). */
  var rules = JSON.parse(document.getElementById("entry-rules").textContent);

  function parse(token) {
    var code = token.trim().toUpperCase();
    var tile = rules.tiles[code];
    if (!tile) return { code: code, unknown: true, name: interpolate(gettext("unknown tile %s"), [code]) };
    return { code: code, joker: tile.number === null, colour: tile.colour, number: tile.number, name: tile.name, value: tile.value };
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function tileNode(tile) {
    var node = el("span", "rtile" + (tile.colour ? " c-" + tile.colour.toLowerCase() : "") +
      (tile.joker ? " joker" : "") + (tile.unknown ? " unknown bad" : ""));
    node.title = tile.name;
    var face = el("span");
    face.setAttribute("aria-hidden", "true");
    if (tile.colour) {
      face.appendChild(el("span", "tc", tile.colour));
      face.appendChild(document.createTextNode(String(tile.number)));
    } else {
      face.textContent = tile.joker ? (rules.joker_code || "JK") : tile.code;
    }
    node.appendChild(face);
    node.appendChild(el("span", "sr", tile.name));
    return node;
  }

  function show(input) {
    var target = document.getElementById("tiles-" + input.dataset.tilesFor);
    if (!target) return;
    var tiles = input.value.split(/[\s,;]+/).filter(Boolean).map(parse);
    target.textContent = "";
    if (!tiles.length) return;
    var row = el("div", "rtiles");
    tiles.forEach(function (tile) { row.appendChild(tileNode(tile)); });
    target.appendChild(row);
    var unknown = tiles.filter(function (t) { return t.unknown; });
    var note = el("p", "eval");
    if (unknown.length) {
      note.appendChild(el("span", "no", "✗ " + gettext("Not a tile:") + " " + unknown.map(function (t) { return t.code; }).join(", ")));
    } else if (input.dataset.tilesSize) {
      note.textContent = interpolate(gettext("%s of %s tiles"), [tiles.length, input.dataset.tilesSize]);
    } else {
      var total = tiles.reduce(function (sum, t) { return sum + t.value; }, 0);
      note.textContent = interpolate(ngettext("%s tile", "%s tiles", tiles.length), [tiles.length]) + " · " + interpolate(gettext("counts %s"), [total]);
    }
    target.appendChild(note);
  }

  var winner = form.querySelector("#id_winner");
  var win = form.querySelector("#id_win");

  function toggle(selector, visible) {
    Array.prototype.forEach.call(form.querySelectorAll(selector), function (node) {
      node.hidden = !visible;
    });
  }

  function refresh() {
    var who = winner.value;
    var somebody = who && who !== "none";
    toggle("[data-show-when-winner]", somebody);
    toggle("[data-show-when-nobody]", who === "none");
    toggle("[data-show-when-closed]", somebody && win && win.value === "closed");
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.player"), function (set) {
      var out = set.dataset.player === who;
      set.classList.toggle("is-winner", out);
      Array.prototype.forEach.call(set.querySelectorAll("[data-loser-only]"), function (node) {
        node.hidden = out;
      });
    });
    var line = document.getElementById("summary-line");
    if (line) {
      var chosen = winner.options[winner.selectedIndex];
      var say = form.dataset;
      line.textContent = !who ? say.sayWho : who === "none" ? say.sayNobody :
        say.sayOut.replace("{name}", chosen.text);
    }
  }

  Array.prototype.forEach.call(form.querySelectorAll("[data-tiles-for]"), function (input) {
    input.addEventListener("input", function () { show(input); });
    show(input);
  });
  winner.addEventListener("change", refresh);
  if (win) win.addEventListener("change", refresh);
  refresh();
})();
