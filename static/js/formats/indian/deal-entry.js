/* Deal entry: cards typed (`10H QS JK`, `|` between groups) or tapped on a card picker, shown
   with suit symbols, grouped by tapping (or dragging) cards between groups, and checked as you go
   by the rules engine (POST /api/v1/rules/evaluate/). The text field stays the source of truth:
   without this script the form still posts what was typed. */
(function () {
  "use strict";

  var form = document.getElementById("deal-form");
  if (!form) return;

  /* The rules as the server gives them (scoring/entry_rules.py): the card notation the engine
     reads, the hand size, the decks, the winner's outcome, and each outcome the game's format
     offers: the points it may score without cards (low..high), whether its points follow the
     cards, whether cards given must (true) or must not (false) form a valid declaration, and
     its name for the rules engine. */
  var rules = JSON.parse(document.getElementById("entry-rules").textContent);
  var notation = rules.cards;
  var decks = rules.decks;
  var outcomes = rules.outcomes;
  // The page's language (Django's JavaScript catalog, loaded by base.html); the words as they
  // are where it is absent.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values, named) {
    if (named) return text.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
    return values.reduce(function (out, value) { return out.replace("%s", value); }, text);
  };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var touched = false;
  var evaluateUrl = form.dataset.evaluateUrl;
  var checkUrl = form.dataset.checkUrl;
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  /* How each suit is named aloud, and which are red. */
  var SUIT_WORDS = {
    S: [gettext("%s of spades"), false], H: [gettext("%s of hearts"), true],
    D: [gettext("%s of diamonds"), true], C: [gettext("%s of clubs"), false]
  };
  var RANK_WORDS = { A: gettext("ace"), J: gettext("jack"), Q: gettext("queen"), K: gettext("king") };
  var KINDS = {
    pure_sequence: [gettext("Pure sequence"), "✓", "good"],
    impure_sequence: [gettext("Impure sequence"), "✓", "good"],
    set: [gettext("Set"), "✓", "good"],
    invalid: [gettext("Not a valid group"), "✗", "bad"]
  };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "class") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  /* --- cards as text ------------------------------------------------------------------------ */

  /* A card by its canonical code. */
  function cardOf(code) {
    if (code === notation.joker) {
      return { code: code, rank: code, symbol: "", red: false, name: gettext("printed joker"), known: true };
    }
    var rank = notation.deck[code][0];
    var suit = notation.deck[code][1];
    return {
      code: code, rank: rank, symbol: notation.suits[suit], red: SUIT_WORDS[suit][1],
      name: interpolate(SUIT_WORDS[suit][0], [RANK_WORDS[rank] || rank]), known: true
    };
  }

  /* A card's accessible name begins with what its button shows (WCAG 2.5.3, label in name), so
     a voice user saying "J" or "A 1 left" reaches it: "J♠, jack of spades"; "7 of hearts" does
     already. ``extra``: the words shown under the card (how many are left). */
  function spoken(card, extra) {
    if (!extra && card.name.indexOf(card.rank + " ") === 0) return card.name;
    return card.rank + card.symbol + (extra ? " " + extra : "") + ", " + card.name;
  }

  function parseCard(token) {
    var t = String(token).trim();
    var code = notation.spellings[t.toUpperCase()];
    if (code) return cardOf(code);
    return { code: t, rank: t, symbol: "", red: false, name: interpolate(gettext("unknown card %s"), [t]), known: false };
  }

  function parseText(text) {
    var parts = String(text).split("|").map(function (part) {
      return part.split(/[\s,;]+/).filter(Boolean);
    });
    var groups = parts.filter(function (g, i) { return g.length || i === parts.length - 1; });
    return groups.length ? groups : [[]];
  }

  function toText(groups) {
    var kept = groups.filter(function (g, i) { return g.length || i === groups.length - 1; });
    if (kept.length === 1 && !kept[0].length) return "";
    return kept.map(function (g) { return g.join(" "); }).join(" | ").replace(/\s+$/, " ").replace(/^ $/, "");
  }

  function count(groups) {
    return groups.reduce(function (n, g) { return n + g.length; }, 0);
  }

  function cardNode(card, extraClass) {
    return el("span", { class: "card" + (card.red ? " red" : "") + (card.known ? "" : " unknown") + (extraClass || ""), title: card.name }, [
      el("span", { "aria-hidden": "true", text: card.rank + card.symbol }),
      el("span", { class: "sr", text: card.name })
    ]);
  }

  /* --- the wild joker --------------------------------------------------------------------- */

  var wildInput = document.getElementById("id_wild");
  var wildShow = document.getElementById("wild-show");

  /* The cut card as the engine reads it: a card, or a rank alone; the rank it makes wild. */
  function wildInfo() {
    var raw = (wildInput.value || "").trim();
    if (!raw) return null;
    var upper = raw.toUpperCase();
    var rank = notation.wild[upper];
    if (!rank) return { text: raw, card: null, rank: null, ok: false };
    var code = notation.spellings[upper];
    if (code) return { text: code, card: cardOf(code), rank: rank, ok: true };
    return { text: rank, card: null, rank: rank, ok: true };
  }

  function showWild() {
    var info = wildInfo();
    wildShow.textContent = "";
    if (!info) {
      wildShow.appendChild(el("span", { class: "muted", text: gettext("Needed to check cards.") }));
      return;
    }
    if (!info.ok) {
      wildShow.appendChild(el("span", { class: "no", text: "✗ " + interpolate(gettext("“%s” is not a card: write e.g. QH, 10S or JK."), [info.text]) }));
      return;
    }
    if (info.card) wildShow.appendChild(cardNode(info.card));
    var words = info.card && info.card.code === notation.joker
      ? " " + gettext("Printed joker cut: every ace is a joker this deal.")
      : " " + interpolate(gettext("Every %s is a joker this deal."), [info.rank]);
    wildShow.appendChild(document.createTextNode(words));
  }

  /* --- player lines ----------------------------------------------------------------------- */

  var lines = Array.prototype.map.call(form.querySelectorAll("fieldset.player"), function (fs) {
    return {
      fs: fs,
      id: fs.dataset.player,
      name: fs.dataset.name,
      outcome: fs.querySelector("select.outcome"),
      points: fs.querySelector("input.points"),
      input: fs.querySelector("input.cards-input"),
      view: fs.querySelector(".hand-view"),
      evalOut: fs.querySelector(".eval"),
      pickBtn: fs.querySelector(".pick-btn"),
      selected: [],
      result: null,
      error: null,
      sentKey: null
    };
  });

  function lineGroups(line) {
    return parseText(line.input.value);
  }

  function setGroups(line, groups) {
    line.input.value = toText(groups);
    changed(line);
  }

  function moveSelected(line, target) {
    var groups = lineGroups(line);
    var picked = line.selected.slice().sort(function (a, b) { return b[0] - a[0] || b[1] - a[1]; });
    var moving = [];
    picked.forEach(function (spot) {
      var g = groups[spot[0]];
      if (g && spot[1] < g.length) moving.unshift(g.splice(spot[1], 1)[0]);
    });
    if (target === "new") groups.push(moving);
    else if (target !== "remove" && groups[target]) groups[target] = groups[target].concat(moving);
    groups = groups.filter(function (g) { return g.length; });
    line.selected = [];
    setGroups(line, groups.length ? groups : [[]]);
    var focusTarget = line.view.querySelector(".group:last-of-type .chip:last-child") || line.input;
    if (target !== "remove" && target !== "new") {
      var boxes = line.view.querySelectorAll(".group");
      var box = boxes[Math.min(target, boxes.length - 1)];
      if (box) focusTarget = box.querySelector(".chip:last-child") || focusTarget;
    }
    focusTarget.focus();
  }

  function isSelected(line, g, i) {
    return line.selected.some(function (s) { return s[0] === g && s[1] === i; });
  }

  function badSpots(line) {
    var spots = {};
    var tokens = {};
    var problem = line.error;
    if (problem) {
      var details = problem.details || {};
      if (typeof details.group === "number" && typeof details.position === "number") {
        spots[details.group + ":" + details.position] = true;
      }
      (details.groups || []).forEach(function (g) { spots["group:" + g] = true; });
      if (problem.token && (problem.code === "bad_card" || problem.code === "too_many_copies")) {
        tokens[parseCard(problem.token).code] = true;
      }
    }
    return { spots: spots, tokens: tokens };
  }

  function offered(line) {
    return outcomes[line.outcome.value];
  }

  function isWinner(line) {
    return line.outcome.value === rules.winner;
  }

  /* Whether the line's cards must form a valid declaration. */
  function mustShow(line) {
    return (offered(line) || {}).valid === true;
  }

  /* A loser's unmatched cards are no mistake: they are what counts. */
  function kindOf(line, kind) {
    if (kind === "invalid" && !mustShow(line)) return [gettext("Unmatched: these count"), "·", "muted"];
    return KINDS[kind] || [kind, "", ""];
  }

  function renderHand(line) {
    var groups = lineGroups(line);
    var view = line.view;
    view.textContent = "";
    var n = count(groups);
    if (!n) return;
    var grouped = groups.filter(function (g) { return g.length; }).length > 1;
    var result = line.result;
    var bad = badSpots(line);
    var hand = el("div", { class: "hand", role: "list", "aria-label": interpolate(gettext("Groups of %s's hand"), [line.name]) });
    var shownIndex = 0;
    groups.forEach(function (group, g) {
      if (!group.length && g === groups.length - 1 && g > 0) return;
      var kind = grouped && result && result.groups && result.groups[shownIndex] ? kindOf(line, result.groups[shownIndex].kind) : null;
      shownIndex += group.length ? 1 : 0;
      var box = el("div", { class: "group" + ((kind && kind[2] === "bad") || bad.spots["group:" + g] ? " bad" : ""), role: "listitem", "data-group": g });
      var label = grouped ? interpolate(gettext("Group %s"), [g + 1]) : gettext("Ungrouped");
      box.appendChild(el("span", { class: "kind" + (kind ? " " + kind[2] : ""), text: kind ? label + ": " + kind[1] + " " + kind[0] : label }));
      var row = el("div", { class: "cards" });
      group.forEach(function (token, i) {
        var card = parseCard(token);
        var wrong = bad.spots[g + ":" + i] || bad.tokens[card.code] || !card.known;
        var chip = el("button", {
          type: "button",
          class: "chip" + (card.red ? " red" : "") + (wrong ? " bad" : ""),
          "aria-pressed": isSelected(line, g, i) ? "true" : "false",
          "aria-label": interpolate(wrong ? gettext("%s (wrong), group %s, select to move") : gettext("%s, group %s, select to move"), [spoken(card), g + 1]),
          draggable: "true",
          "data-spot": g + ":" + i,
          text: card.rank + card.symbol
        });
        row.appendChild(chip);
      });
      box.appendChild(row);
      hand.appendChild(box);
    });
    view.appendChild(hand);
    if (line.selected.length) {
      var bar = el("div", { class: "move-bar", role: "group", "aria-label": gettext("Move selected cards") }, [
        el("span", { class: "small", text: interpolate(gettext("%s selected: move to"), [line.selected.length]) })
      ]);
      groups.forEach(function (group, g) {
        if (!group.length) return;
        bar.appendChild(el("button", { type: "button", class: "secondary small", "data-move": g, text: interpolate(gettext("Group %s"), [g + 1]) }));
      });
      bar.appendChild(el("button", { type: "button", class: "secondary small", "data-move": "new", text: gettext("New group") }));
      bar.appendChild(el("button", { type: "button", class: "secondary small", "data-move": "remove", text: gettext("Remove") }));
      view.appendChild(bar);
    }
    if (!grouped && result && result.groups && n === rules.hand_size) {
      var best = el("div", { class: "hand best" });
      result.groups.forEach(function (group) {
        var kind = kindOf(line, group.kind);
        var box = el("div", { class: "group" + (kind[2] === "bad" ? " bad" : "") }, [
          el("span", { class: "kind " + kind[2], text: kind[1] + " " + kind[0] })
        ]);
        var row = el("div", { class: "cards" });
        group.cards.forEach(function (code) { row.appendChild(cardNode(parseCard(code))); });
        box.appendChild(row);
        best.appendChild(box);
      });
      view.appendChild(el("p", { class: "small muted", text: gettext("Best arrangement the rules find:") }));
      view.appendChild(best);
      var use = el("button", { type: "button", class: "secondary small", "data-use-best": "1", text: gettext("Use this grouping") });
      view.appendChild(use);
    }
  }

  function renderEval(line) {
    var out = line.evalOut;
    out.textContent = "";
    var n = count(lineGroups(line));
    if (!n) return;
    if (line.error) {
      out.appendChild(el("span", { class: "no", text: "✗ " + line.error.message }));
      return;
    }
    if (n !== rules.hand_size) {
      out.appendChild(el("span", { class: "muted", text: interpolate(gettext("%s of %s cards"), [n, rules.hand_size]) }));
      return;
    }
    var wild = wildInfo();
    if (!wild || !wild.ok) {
      out.appendChild(el("span", { class: "muted", text: interpolate(gettext("%s cards · give the wild joker to check them"), [rules.hand_size]) }));
      return;
    }
    if (!line.result) {
      out.appendChild(el("span", { class: "muted", text: gettext("Checking…") }));
      return;
    }
    var r = line.result;
    var pointWords = interpolate(ngettext("%s point", "%s points", r.against), [r.against]);
    var points = " · " + pointWords;
    var valid = (offered(line) || {}).valid;
    if (valid === true) {
      out.appendChild(el("span", { class: r.valid ? "ok" : "no", text: r.valid ? "✓ " + gettext("Valid declaration") : "✗ " + gettext("Not a valid declaration") }));
      out.appendChild(document.createTextNode(points));
    } else if (r.valid && valid === false) {
      out.appendChild(el("span", { class: "no", text: "✓ " + gettext("Valid declaration: enter this player as “Valid, not declared”") }));
    } else {
      out.appendChild(el("strong", { text: pointWords }));
      out.appendChild(el("span", { class: "muted", text: " · " + (r.valid ? gettext("valid hand") : gettext("no valid declaration")) }));
    }
  }

  /* --- asking the rules engine ------------------------------------------------------------ */

  var timer = null;
  var generation = 0;

  function schedule() {
    // What the server said was about the deal as it stood: dropped until it answers again.
    checked = { problems: [], points: {}, note: "" };
    checkGeneration += 1;
    clearTimeout(timer);
    timer = setTimeout(function () { evaluateAll(); checkDeal(); }, 250);
  }

  function request(line, wild) {
    var groups = lineGroups(line).filter(function (g) { return g.length; });
    var codes = groups.map(function (g) {
      return g.map(function (t) { var c = parseCard(t); return c.known ? c.code : t; });
    });
    var body = { id: line.id, game: "indian", wild: wild.text, decks: decks, outcome: (offered(line) || {}).evaluate_as };
    if (rules.house_rules && Object.keys(rules.house_rules).length) body.house_rules = rules.house_rules;
    if (codes.length > 1) body.groups = codes;
    else body.cards = codes[0];
    return body;
  }

  function evaluateAll() {
    var wild = wildInfo();
    var batch = [];
    lines.forEach(function (line) {
      var n = count(lineGroups(line));
      if (n !== rules.hand_size || !wild || !wild.ok) {
        line.result = null;
        line.error = null;
        line.sentKey = null;
        return;
      }
      var body = request(line, wild);
      var key = JSON.stringify(body);
      if (key === line.sentKey && (line.result || line.error)) return;
      line.sentKey = key;
      line.result = null;
      line.error = null;
      batch.push(body);
    });
    lines.forEach(function (line) { renderHand(line); renderEval(line); });
    summarise();
    if (!batch.length) return;
    var mine = ++generation;
    fetch(evaluateUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(batch)
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (answer) {
      if (mine !== generation) return;
      var items = Array.isArray(answer.data) ? answer.data : [];
      if (!answer.ok) {
        var error = (answer.data && answer.data.error) || { message: gettext("the rules could not be asked") };
        items = batch.map(function (body) { return { id: body.id, error: error }; });
      }
      items.forEach(function (item) {
        var line = lines.find(function (l) { return String(l.id) === String(item.id); });
        if (!line) return;
        if (item.error) line.error = item.error;
        else line.result = item;
      });
      lines.forEach(function (line) { renderHand(line); renderEval(line); });
      summarise();
    }).catch(function () {
      lines.forEach(function (line) {
        if (line.sentKey && !line.result) line.error = { message: gettext("could not reach the rules engine; the server checks on submit") };
        line.sentKey = null;
        renderEval(line);
      });
    });
  }

  /* --- summary before submitting ---------------------------------------------------------- */

  var summary = document.getElementById("summary");
  var submitButton = form.querySelector(".submit-bar button[type=submit]");
  submitButton.setAttribute("aria-describedby", "summary-line");

  function usage() {
    var used = {};
    lines.forEach(function (line) {
      lineGroups(line).forEach(function (g) {
        g.forEach(function (t) { var c = parseCard(t); if (c.known) used[c.code] = (used[c.code] || 0) + 1; });
      });
    });
    var wild = wildInfo();
    if (wild && wild.card) used[wild.card.code] = (used[wild.card.code] || 0) + 1;
    return used;
  }

  function linePoints(line) {
    var option = offered(line) || {};
    if (checked.points[line.id] !== undefined) return { value: checked.points[line.id], how: "checked" };
    if (line.points.value !== "") return { value: Number(line.points.value), how: "entered" };
    if (line.result) return { value: line.result.against, how: "from the cards" };
    if (option.low === option.high && option.low !== undefined) return { value: option.low, how: "fixed" };
    return null;
  }

  /* The deal as typed, checked by the server with the game's own rules exactly as a submitted
     version would be (nothing is stored): its problems, each naming the player and the card,
     group or field, and what each line scores. The page holds no rules of its own. */
  var checked = { problems: [], points: {}, note: "" };
  var checkGeneration = 0;

  function checkDeal() {
    var mine = ++checkGeneration;
    fetch(checkUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, Accept: "application/json" },
      body: new FormData(form)
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (answer) {
      if (mine !== checkGeneration) return;
      checked = { problems: answer.problems || [], points: answer.points || {}, note: "" };
      summarise();
    }).catch(function () {
      if (mine !== checkGeneration) return;
      checked = { problems: [], points: {}, note: gettext("The deal could not be checked just now; the server checks it when you submit.") };
      summarise();
    });
  }

  function summarise() {
    summary.textContent = "";
    var problems = checked.problems.map(function (p) { return p.charAt(0).toUpperCase() + p.slice(1); });
    var winners = lines.filter(isWinner);
    var table = el("table", {}, [
      el("thead", {}, [el("tr", {}, [
        el("th", { scope: "col", text: gettext("Player") }), el("th", { scope: "col", text: gettext("Outcome") }),
        el("th", { scope: "col", class: "num", text: gettext("Points") })
      ])])
    ]);
    var body = el("tbody");
    var total = 0;
    var missing = 0;
    lines.forEach(function (line) {
      var pts = linePoints(line);
      var outcome = line.outcome.options[line.outcome.selectedIndex].text;
      if (!isWinner(line)) {
        if (pts) total += pts.value; else missing += 1;
      }
      body.appendChild(el("tr", {}, [
        el("td", { class: isWinner(line) ? "won" : "", text: line.name }),
        el("td", { text: outcome }),
        el("td", { class: "num", text: pts ? String(pts.value) : "?" })
      ]));
    });
    table.appendChild(body);
    var line = document.getElementById("summary-line");
    line.textContent = "";
    if (problems.length && !touched) {
      // A blank form is not a mistake: say what to do, in no alarm colour, until a change.
      summary.appendChild(el("p", { class: "small muted", text: gettext("Enter each player's outcome and cards or points; problems show here as you go.") }));
      line.appendChild(el("span", { class: "muted", text: gettext("Enter the deal to submit it.") }));
    } else if (problems.length) {
      // No "wins" line beside an error: the deal is not a result until its problems are fixed.
      summary.appendChild(el("p", {}, [el("strong", { class: "no", text: gettext("Not ready to submit") }), " · " + ngettext("fix the problem below", "fix the problems below", problems.length)]));
      var list = el("ul", { class: "problems small" });
      problems.forEach(function (p) { list.appendChild(el("li", { text: "✗ " + p })); });
      summary.appendChild(list);
      line.appendChild(el("span", { class: "no", text: "✗ " + interpolate(ngettext("%s problem to fix before submitting (see above)", "%s problems to fix before submitting (see above)", problems.length), [problems.length]) }));
    } else if (winners.length === 1) {
      var collects = missing
        ? " · " + interpolate(ngettext("%s player needs cards or points", "%s players need cards or points", missing), [missing])
        : " " + interpolate(gettext("and collects %s points"), [total]);
      summary.appendChild(el("p", {}, [el("strong", { text: interpolate(gettext("%s wins"), [winners[0].name]) }), collects]));
      line.appendChild(el("span", { text: interpolate(gettext("%s wins"), [winners[0].name]) + (missing ? "" : " · " + interpolate(gettext("%s points"), [total])) }));
    } else {
      summary.appendChild(el("p", {}, [el("strong", { text: gettext("No winner yet") })]));
    }
    // Submit waits while the check shows problems, and while the form is cleared for the next
    // deal with nothing typed yet (static/js/offline-entry.js); the server still checks whatever
    // is sent, and without this script the button is never disabled.
    submitButton.disabled = problems.length > 0 || form.hasAttribute("data-cleared");
    if (checked.note) summary.appendChild(el("p", { class: "small muted", text: checked.note }));
    summary.appendChild(table);
    refreshPicker();
  }

  /* --- the card picker -------------------------------------------------------------------- */

  var picker = el("div", { id: "picker", class: "picker", role: "group", "aria-labelledby": "picker-title", hidden: "hidden" });
  var pickerTitle = el("p", { id: "picker-title", class: "small", style: "margin:0 0 .35rem;font-weight:700" });
  var grid = el("div", { class: "picker-grid", role: "group", "aria-label": gettext("Cards: arrow keys move, Enter adds") });
  var buttons = [];
  Object.keys(notation.deck).concat([notation.joker]).forEach(function (code, index) {
    var card = cardOf(code);
    var kind = code === notation.joker ? "joker" : (card.red ? "red" : "") + (index % notation.ranks_per_suit ? "" : " suit-start");
    var b = el("button", { type: "button", class: kind, "data-card": code, tabindex: "-1", "aria-label": spoken(card) },
      [el("span", { "aria-hidden": "true", text: card.rank + card.symbol }), " ", el("span", { class: "left", "aria-hidden": "true" })]);
    buttons.push(b);
    grid.appendChild(b);
  });
  buttons[0].tabIndex = 0;
  var counter = el("span", { class: "count", "aria-live": "polite" });
  var tools = el("div", { class: "picker-tools" }, [
    el("button", { type: "button", class: "secondary small", "data-tool": "group", text: "| " + gettext("New group") }),
    el("button", { type: "button", class: "secondary small", "data-tool": "undo", text: gettext("Undo") }),
    el("button", { type: "button", class: "secondary small", "data-tool": "clear", text: gettext("Clear") }),
    el("button", { type: "button", class: "small", "data-tool": "done", text: gettext("Done") }),
    counter
  ]);
  picker.appendChild(pickerTitle);
  picker.appendChild(grid);
  picker.appendChild(tools);
  var target = null; // a line, or "wild"

  function refreshPicker() {
    if (picker.hidden) return;
    var used = usage();
    buttons.forEach(function (b) {
      var left = decks - (used[b.dataset.card] || 0);
      b.setAttribute("aria-disabled", left <= 0 ? "true" : "false");
      b.classList.toggle("none-left", left <= 0);
      b.disabled = false;
      var leftWords = left <= 0 ? gettext("none") : (left < decks ? interpolate(gettext("%s left"), [left]) : "");
      b.querySelector(".left").textContent = leftWords;
      // What the button shows is in its name, the count left as well (label in name).
      b.setAttribute("aria-label", spoken(cardOf(b.dataset.card), leftWords));
      if (left <= 0) b.style.opacity = ".4"; else b.style.opacity = "";
    });
    if (target && target !== "wild") {
      var n = count(lineGroups(target));
      counter.textContent = n + " / " + rules.hand_size;
    } else {
      counter.textContent = "";
    }
    tools.querySelectorAll("[data-tool=group],[data-tool=undo],[data-tool=clear]").forEach(function (b) {
      b.hidden = target === "wild";
    });
  }

  function openPicker(forWhat, anchor, opener) {
    if (target && target !== "wild") target.fs.classList.remove("is-active");
    document.querySelectorAll("[aria-controls=picker]").forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
    target = forWhat;
    anchor.parentNode.insertBefore(picker, anchor.nextSibling);
    picker.hidden = false;
    form.classList.add("picking");
    opener.setAttribute("aria-expanded", "true");
    pickerTitle.textContent = forWhat === "wild" ? gettext("Pick the cut card (wild joker)") : interpolate(gettext("Cards of %s: tap to add to the last group"), [forWhat.name]);
    if (forWhat !== "wild") forWhat.fs.classList.add("is-active");
    refreshPicker();
    var current = grid.querySelector("[tabindex='0']") || buttons[0];
    current.focus();
  }

  function closePicker() {
    var opener = null;
    if (target === "wild") opener = form.querySelector("[data-pick-wild]");
    else if (target) { opener = target.pickBtn; target.fs.classList.remove("is-active"); }
    picker.hidden = true;
    form.classList.remove("picking");
    target = null;
    document.querySelectorAll("[aria-controls=picker]").forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
    if (opener) opener.focus();
  }

  function addCard(code) {
    if (target === "wild") {
      wildInput.value = code;
      wildChanged();
      closePicker();
      return;
    }
    if (!target) return;
    var used = usage();
    if ((used[code] || 0) >= decks) {
      counter.textContent = interpolate(ngettext("No %s left: %s deck holds %s", "No %s left: %s decks hold %s", decks), [code, decks, decks]);
      return;
    }
    var groups = lineGroups(target);
    groups[groups.length - 1].push(code);
    setGroups(target, groups);
  }

  grid.addEventListener("click", function (event) {
    var b = event.target.closest("button[data-card]");
    if (!b) return;
    buttons.forEach(function (x) { x.tabIndex = -1; });
    b.tabIndex = 0;
    addCard(b.dataset.card);
  });

  grid.addEventListener("keydown", function (event) {
    var index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    var next = index;
    var cols = notation.ranks_per_suit;
    if (event.key === "ArrowRight") next = Math.min(buttons.length - 1, index + 1);
    else if (event.key === "ArrowLeft") next = Math.max(0, index - 1);
    else if (event.key === "ArrowDown") next = Math.min(buttons.length - 1, index + cols);
    else if (event.key === "ArrowUp") next = Math.max(0, index - cols);
    else if (event.key === "Home") next = index - (index % cols);
    else if (event.key === "End") next = Math.min(buttons.length - 1, index - (index % cols) + cols - 1);
    else if (event.key === "|") { event.preventDefault(); tool("group"); return; }
    else if (event.key === "Backspace") { event.preventDefault(); tool("undo"); return; }
    else if (event.key === "Escape") { event.preventDefault(); closePicker(); return; }
    else return;
    event.preventDefault();
    buttons[index].tabIndex = -1;
    buttons[next].tabIndex = 0;
    buttons[next].focus();
  });

  function tool(name) {
    if (name === "done") { closePicker(); return; }
    if (!target || target === "wild") return;
    var groups = lineGroups(target);
    if (name === "group") {
      if (groups[groups.length - 1].length) groups.push([]);
    } else if (name === "undo") {
      for (var g = groups.length - 1; g >= 0; g--) {
        if (groups[g].length) { groups[g].pop(); break; }
        if (g > 0) { groups.pop(); break; }
      }
    } else if (name === "clear") {
      groups = [[]];
    }
    setGroups(target, groups);
  }

  tools.addEventListener("click", function (event) {
    var b = event.target.closest("button[data-tool]");
    if (b) tool(b.dataset.tool);
  });

  picker.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.preventDefault(); closePicker(); }
  });

  /* --- wiring ----------------------------------------------------------------------------- */

  form.addEventListener("input", function () { touched = true; });
  form.addEventListener("change", function () { touched = true; });
  form.addEventListener("submit", function () { touched = true; });
  /* Cleared for the next deal (static/js/offline-entry.js keeps the last one on the device):
     back to the page as it opened, nothing red until something is typed. */
  form.addEventListener("reset", function () {
    setTimeout(function () {
      touched = false;
      showWild();
      lines.forEach(function (line) {
        line.selected = [];
        line.result = null;
        line.error = null;
        line.sentKey = null;
        line.fs.classList.toggle("is-winner", isWinner(line));
        renderHand(line);
        renderEval(line);
      });
      summarise();
      schedule();
    }, 0);
  });

  function changed(line) {
    line.selected = line.selected.filter(function () { return false; });
    renderHand(line);
    renderEval(line);
    refreshPicker();
    schedule();
  }

  function wildChanged() {
    showWild();
    lines.forEach(function (line) { line.sentKey = null; });
    schedule();
  }

  wildInput.addEventListener("input", wildChanged);
  form.querySelector("[data-pick-wild]").addEventListener("click", function (event) {
    if (target === "wild" && !picker.hidden) { closePicker(); return; }
    openPicker("wild", wildShow, event.currentTarget);
  });

  var dragged = null;

  lines.forEach(function (line) {
    line.input.addEventListener("input", function () { changed(line); });
    line.outcome.addEventListener("change", function () {
      line.fs.classList.toggle("is-winner", isWinner(line));
      line.sentKey = null;
      schedule();
    });
    line.points.addEventListener("input", function () { schedule(); summarise(); });
    line.fs.classList.toggle("is-winner", isWinner(line));
    line.pickBtn.addEventListener("click", function (event) {
      if (target === line && !picker.hidden) { closePicker(); return; }
      openPicker(line, line.view, event.currentTarget);
    });
    line.view.addEventListener("click", function (event) {
      var chip = event.target.closest(".chip");
      if (chip) {
        var spot = chip.dataset.spot.split(":").map(Number);
        if (isSelected(line, spot[0], spot[1])) {
          line.selected = line.selected.filter(function (s) { return !(s[0] === spot[0] && s[1] === spot[1]); });
        } else {
          line.selected.push(spot);
        }
        renderHand(line);
        var again = line.view.querySelector('[data-spot="' + spot.join(":") + '"]');
        if (again) again.focus();
        return;
      }
      var move = event.target.closest("[data-move]");
      if (move) {
        var where = move.dataset.move;
        moveSelected(line, where === "new" || where === "remove" ? where : Number(where));
        return;
      }
      if (event.target.closest("[data-use-best]") && line.result) {
        setGroups(line, line.result.groups.map(function (g) { return g.cards.slice(); }));
      }
    });
    line.view.addEventListener("dragstart", function (event) {
      var chip = event.target.closest(".chip");
      if (!chip) return;
      dragged = { line: line, spot: chip.dataset.spot.split(":").map(Number) };
      event.dataTransfer.setData("text/plain", chip.textContent);
      event.dataTransfer.effectAllowed = "move";
    });
    line.view.addEventListener("dragover", function (event) {
      var box = event.target.closest(".group[data-group]");
      if (!box || !dragged || dragged.line !== line) return;
      event.preventDefault();
      box.classList.add("drop-target");
    });
    line.view.addEventListener("dragleave", function (event) {
      var box = event.target.closest(".group[data-group]");
      if (box) box.classList.remove("drop-target");
    });
    line.view.addEventListener("drop", function (event) {
      var box = event.target.closest(".group[data-group]");
      if (!box || !dragged || dragged.line !== line) return;
      event.preventDefault();
      if (!isSelected(line, dragged.spot[0], dragged.spot[1])) line.selected = [dragged.spot];
      dragged = null;
      moveSelected(line, Number(box.dataset.group));
    });
  });

  document.addEventListener("dragend", function () { dragged = null; });

  showWild();
  lines.forEach(function (line) { renderHand(line); renderEval(line); });
  summarise();
  schedule();
})();
