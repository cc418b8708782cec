/* Entry that survives bad wifi, for any form that opts in with ``data-offline-entry`` (the deal
   entry pages; a page loads static/js/offline-queue.js before this file).

   A submitted deal is first written to this device (IndexedDB, static/js/offline-queue.js), then
   sent. Sent and answered: the page goes where the server says, as a plain post would. No
   connection, or an answer that says "not now" (502, 503, 504, a server restarting): the deal
   stays on the device, shown as waiting to send, the form is cleared for the next deal, and the
   waiting deals are sent in order when the connection returns: on the "online" event, on a timer
   that backs off, when any entry page loads, and by the service worker's Background Sync. Refused
   (400): the form is posted as before, so the server's page names the problem. A deal sent later
   and refused, or in conflict with an entry made elsewhere, stays on the device with the
   server's reason and what can be done (correct it, send it as the next deal, discard it).

   The connection line above the form says online, offline or how many deals wait; it changes
   only once a state has held for a moment, so a flaky connection does not make it flicker. */
(function () {
  "use strict";

  // The page's language (Django's JavaScript catalog, loaded by base.html); the words as they
  // are where it is absent.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return values.reduce(function (out, value) { return out.replace("%s", value); }, text);
  };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var form = document.querySelector("form[data-offline-entry]");
  var Queue = window.OfflineQueue;
  if (!form || !Queue || !window.indexedDB) return;

  var WORKER = "/sw.js";
  var MANIFEST = "/manifest.webmanifest";
  var USED = "offline-entry:used-tokens";
  var SETTLE_MS = 1200;

  var loginPath = form.dataset.offlineEntryLogin || "/login/";
  var action = new URL(form.getAttribute("action") || location.href, location.href);
  action.hash = "";
  var url = action.pathname + action.search;
  // The game's next deal number as this page knows it (moved on as deals are sent), and the
  // number the page shows: past the deals waiting from this form.
  var baseNumber = parseInt(form.dataset.dealNumber || "", 10);
  var shownNumber = baseNumber;
  var tokenInput = form.querySelector("input[name=form_token]");
  var backLink = form.querySelector(".actions a");
  var navigation = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || {};

  var items = [];
  var retryTimer = null;
  var failures = 0;
  var reachable = true;  // the last try reached the server
  var sentHere = [];
  var live = null;  // the deal just submitted here, until it is answered or kept

  /* --- small helpers ----------------------------------------------------------------------- */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function freshToken() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function usedTokens() {
    try { return JSON.parse(localStorage.getItem(USED) || "[]"); } catch (error) { return []; }
  }
  function markUsed(token) {
    try {
      var used = usedTokens().filter(function (t) { return t !== token; });
      used.push(token);
      localStorage.setItem(USED, JSON.stringify(used.slice(-200)));
    } catch (error) { /* storage refused: the worst case is a token used twice, a replay */ }
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }

  /* The page opened again from the device (the tab reopened offline) carries the token of the
     page as it was kept: a deal already sent with it would be answered as that deal. Going back
     to a form sent is the one case where the old token is wanted (static/js/form-once.js). */
  if (tokenInput && navigation.type !== "back_forward" && usedTokens().indexOf(tokenInput.value) >= 0) {
    tokenInput.value = freshToken();
  }

  /* --- the installable app: manifest and worker ------------------------------------------- */

  if (!document.querySelector("link[rel=manifest]")) {
    document.head.appendChild(el("link", { rel: "manifest", href: MANIFEST }));
  }

  function keepThisPage(registration) {
    var worker = registration.active || navigator.serviceWorker.controller;
    if (!worker) return;
    var assets = [];
    document.querySelectorAll("script[src], link[rel=stylesheet][href], link[rel=icon][href]").forEach(function (node) {
      var href = node.src || node.href;
      if (href && new URL(href).origin === location.origin) assets.push(href);
    });
    worker.postMessage({ type: "keep", page: location.href, assets: assets });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(WORKER, { scope: "/" }).catch(function () { return null; });
    navigator.serviceWorker.ready.then(keepThisPage);
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "queue-changed") { noteSent(event.data.sent || []); refresh(); }
    });
  }

  function askForSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(Queue.SYNC_TAG);
      return null;
    }).catch(function () { return null; });
  }

  /* --- the connection line and the waiting deals ------------------------------------------ */

  var bar = el("div", { class: "conn", id: "connection", role: "status", "aria-live": "polite" });
  var line = el("p", { class: "conn-line" });
  var list = el("ol", { class: "queue", id: "waiting-deals", "aria-label": gettext("Deals waiting on this device") });
  bar.appendChild(line);
  bar.appendChild(list);
  form.parentNode.insertBefore(bar, form);

  var shown = null;
  var settleTimer = null;

  function stateNow() {
    var waiting = items.filter(function (item) { return !item.state || item.state === "waiting"; }).length;
    var attention = items.length - waiting +
      sentHere.filter(function (sent) { return sent.reasons.length; }).length;
    var connection = !navigator.onLine ? "offline" : (reachable ? "online" : "unreachable");
    return { connection: connection, waiting: waiting, attention: attention };
  }

  function describe(state) {
    var words = { online: gettext("Online"), offline: gettext("Offline"), unreachable: gettext("No answer from the server") }[state.connection];
    var parts = [words];
    if (state.waiting) parts.push(interpolate(ngettext("%s deal waiting to send", "%s deals waiting to send", state.waiting), [state.waiting]));
    if (state.attention) parts.push(interpolate(gettext("%s to look at"), [state.attention]));
    if (state.connection !== "online" && !state.waiting && !state.attention) parts.push(gettext("a deal you submit is kept on this device and sent when the connection returns"));
    return parts.join(" · ");
  }

  function paintLine(state) {
    shown = state;
    var calm = state.connection === "online" && !state.waiting && !state.attention;
    bar.className = "conn " + (calm ? "conn-ok" : (state.attention ? "conn-bad" : "conn-warn"));
    bar.dataset.connection = state.connection;
    bar.dataset.waiting = String(state.waiting);
    line.textContent = describe(state);
  }

  /* A change of the deals' count shows at once; a change of the connection alone waits until it
     has held for SETTLE_MS, so a blip does not flash the line. */
  function paint() {
    var state = stateNow();
    if (shown && state.waiting === shown.waiting && state.attention === shown.attention &&
        state.connection !== shown.connection) {
      clearTimeout(settleTimer);
      settleTimer = setTimeout(function () { paintLine(stateNow()); }, SETTLE_MS);
      return;
    }
    clearTimeout(settleTimer);
    paintLine(state);
  }

  function when(item) {
    var d = new Date(item.created);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }

  function button(text, handler, kind) {
    var b = el("button", { type: "button", class: "small " + (kind || "secondary"), text: text });
    b.addEventListener("click", handler);
    return b;
  }

  function discard(item) {
    if (!window.confirm(interpolate(gettext("Discard %s? What was typed for it is deleted from this device."), [item.label]))) return;
    Queue.remove(item.id).then(refresh);
  }

  function correct(item) {
    // Back into the form as typed; it leaves the waiting list and is sent when submitted again.
    item.fields.forEach(function (pair) {
      if (pair[0] === "csrfmiddlewaretoken" || pair[0] === "form_token" || pair[0] === "expected_number") return;
      var input = form.elements.namedItem(pair[0]);
      if (input && "value" in input) {
        input.value = pair[1];
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    tokenInput && (tokenInput.value = freshToken());
    Queue.remove(item.id).then(refresh);
    form.scrollIntoView();
  }

  /* The game moved on while the deal waited: it goes as the number the server gave next, and
     the deals typed after it on the same form follow it. */
  function resendAsNext(item) {
    var number = item.serverNext;
    var changed = items.filter(function (other) { return other.url === item.url && other.id >= item.id; });
    changed.forEach(function (other) {
      if (other.id === item.id) { other.state = "waiting"; other.message = ""; other.words = null; }
      if (number && field(other.fields, "expected_number") !== null) {
        Queue.setField(other, "expected_number", String(number));
        other.label = other.label.replace(/\d+/, String(number));
        number += 1;
      } else if (other.id === item.id) {
        Queue.setField(other, "expected_number", null);
      }
    });
    Promise.all(changed.map(Queue.put)).then(refresh).then(send);
  }

  function renderList() {
    list.textContent = "";
    items.forEach(function (item) {
      var state = item.state || "waiting";
      var status = {
        waiting: gettext("waiting to send"), refused: gettext("refused"), conflict: gettext("in conflict"),
        "signed-out": gettext("waiting for you to sign in")
      }[state];
      var entry = el("li", { class: "queued queued-" + state, "data-state": state }, [
        el("strong", { text: item.label }), " · " + item.where + " · " + interpolate(gettext("typed %s"), [when(item)]) + " · ",
        el("span", { class: "queued-status", text: status })
      ]);
      var reason = Queue.said(item);  // in this page's language, whoever tried to send it
      if (state !== "waiting" && reason) entry.appendChild(el("p", { class: "queued-reason", text: reason }));
      else if (state === "waiting" && item.tries && reason) entry.appendChild(el("p", { class: "muted small", text: reason }));
      var actions = el("p", { class: "queued-actions" });
      if (state === "refused") {
        if (item.url === url) actions.appendChild(button(gettext("Correct it"), function () { correct(item); }, "primary"));
        else actions.appendChild(el("a", { href: item.url, text: gettext("Open its form to correct it") }));
      } else if (state === "conflict") {
        actions.appendChild(button(gettext("Send it as the next deal"), function () { resendAsNext(item); }, "primary"));
        if (item.back) actions.appendChild(el("a", { href: item.back, text: gettext("Open the game") }));
      } else if (state === "signed-out") {
        actions.appendChild(el("a", { href: loginPath + "?next=" + encodeURIComponent(item.url), text: gettext("Sign in") }));
      }
      if (state !== "waiting" || item.tries) actions.appendChild(button(gettext("Discard"), function () { discard(item); }, "link"));
      if (actions.childNodes.length) entry.appendChild(actions);
      list.appendChild(entry);
    });
    // Sent and rejected by the rules: stays listed with the reasons; sent and fine: the last
    // three, quietly.
    var quiet = sentHere.filter(function (sent) { return !sent.reasons.length; }).slice(-3);
    sentHere.forEach(function (sent) {
      if (sent.reasons.length) {
        var entry = el("li", { class: "queued queued-rejected", "data-state": "rejected" }, [
          el("strong", { text: sent.label }), " · " + gettext("sent, then") + " ",
          el("span", { class: "queued-status", text: gettext("rejected by the rules") })
        ]);
        entry.appendChild(el("ul", { class: "queued-reason" }, sent.reasons.map(function (reason) {
          return el("li", { text: reason });
        })));
        entry.appendChild(el("p", { class: "queued-actions" }, [
          el("a", { href: sent.url, text: gettext("Open the deal to correct it") })
        ]));
        list.appendChild(entry);
      } else if (quiet.indexOf(sent) >= 0) {
        list.appendChild(el("li", { class: "queued queued-sent", "data-state": "sent" }, [
          el("strong", { text: sent.label }), " · " + gettext("sent") + " · ", el("a", { href: sent.url, text: gettext("see it") })
        ]));
      }
    });
    list.hidden = !list.childNodes.length;
  }

  function refresh() {
    return Queue.all().then(function (now) {
      items = now;
      showNumber(nextNumber());  // the deals waiting from this form come before the next one
      renderList();
      paint();
      return now;
    });
  }

  /* Deals sent (here or by the worker): listed as sent; the game's next number is past them. */
  function noteSent(sent) {
    sent.forEach(function (done) {
      sentHere.push({ label: done.item.label, url: done.url, reasons: done.reasons || [] });
      // A deal rejected by the rules keeps its number: the next entry is its next version.
      if (done.item.url !== url || isNaN(baseNumber) || (done.reasons || []).length) return;
      var expected = parseInt(field(done.item.fields, "expected_number") || "", 10);
      baseNumber = isNaN(expected) ? baseNumber + 1 : Math.max(baseNumber, expected + 1);
    });
  }

  /* The page's heading and button name the deal the form enters: keep them right as deals are
     kept and sent. */
  function showNumber(number) {
    if (isNaN(shownNumber) || number === shownNumber) return;
    var old = String(shownNumber);
    var heading = document.querySelector("h1");
    var targets = [heading && heading.firstChild, form.querySelector(".submit-bar button[type=submit]")];
    targets.forEach(function (node) {
      if (!node) return;
      var text = node.nodeType === 3 ? node.nodeValue : node.textContent;
      var changed = text.replace(new RegExp("\\b" + old + "\\b"), String(number));
      if (node.nodeType === 3) node.nodeValue = changed; else node.textContent = changed;
    });
    shownNumber = number;
  }

  function nextNumber() {
    var number = baseNumber;
    items.forEach(function (item) {
      var expected = parseInt(field(item.fields, "expected_number") || "", 10);
      if (item.url === url && item.id !== live && !isNaN(expected)) number = Math.max(number, expected + 1);
    });
    return number;
  }

  /* --- sending ---------------------------------------------------------------------------- */

  function schedule() {
    clearTimeout(retryTimer);
    var waiting = items.some(function (item) { return !item.state || item.state === "waiting"; });
    if (!waiting) { failures = 0; return; }
    var delay = Math.min(30000, 1000 * Math.pow(2, Math.min(failures, 5)));
    retryTimer = setTimeout(send, delay);
  }

  /* One round at a time; a round asked for during another runs after it (a deal submitted
     while the timer's round is out is sent by a round that knows of it). */
  var rounds = Promise.resolve(null);
  function send() {
    var round = rounds.then(sendRound);
    rounds = round.catch(function () { return null; });
    return round;
  }

  function sendRound() {
    clearTimeout(retryTimer);
    return Queue.sendAll({ loginPath: loginPath }).then(function (report) {
      reachable = !report.stopped;
      failures = report.stopped ? failures + 1 : 0;
      noteSent(report.sent);
      return refresh().then(function () {
        if (report.stopped) askForSync();
        schedule();
        return report;
      });
    }, function () { schedule(); return null; });
  }

  /* The form cleared for the next deal is no deal: its submit waits (data-cleared, which the
     format's script also reads) until something is typed, so a second tap queues nothing. */
  var clearing = false;
  var submitButtons = form.querySelectorAll("button[type=submit], input[type=submit]");

  function setCleared(on) {
    if (on) form.setAttribute("data-cleared", "");
    else form.removeAttribute("data-cleared");
    Array.prototype.forEach.call(submitButtons, function (b) { b.disabled = on; });
  }

  function typed() {
    if (!clearing && form.hasAttribute("data-cleared")) setCleared(false);
  }
  form.addEventListener("input", typed);
  form.addEventListener("change", typed);

  function cleared() {
    live = null;
    form.reset();
    if (tokenInput) tokenInput.value = freshToken();
    clearing = true;  // the events below tell the page's scripts, they are not typing
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "hidden" || input.type === "submit" || input.type === "button") return;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    clearing = false;
    setCleared(true);
    showNumber(nextNumber());
    window.scrollTo(0, 0);
  }

  form.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (form.hasAttribute("data-cleared")) return;  // nothing typed since the last was kept
    var data = event.submitter ? new FormData(form, event.submitter) : new FormData(form);
    var fields = [];
    data.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    var token = tokenInput ? tokenInput.value : "";
    if (token) markUsed(token);
    var number = nextNumber();
    if (!isNaN(number)) fields.push(["expected_number", String(number)]);
    var heading = document.querySelector("h1");
    var label = heading && heading.firstChild ? heading.firstChild.textContent.trim() : gettext("Deal");
    if (!isNaN(number)) label = label.replace(/\d+/, String(number));
    var item = {
      url: url, fields: fields, created: Date.now(), state: "waiting", label: label,
      where: document.title.split(" · ").slice(1, 2).join("") || document.title,
      back: backLink ? backLink.href : null
    };
    Queue.add(item).then(function (id) {
      item.id = id;
      live = id;
      return refresh();
    }).then(function () {
      if (!navigator.onLine) { cleared(); askForSync(); schedule(); return null; }
      return send().then(function (report) {
        if (!report) return;
        var mine = report.sent.filter(function (sent) { return sent.item.id === item.id; })[0];
        if (mine) { location.assign(mine.url); return; }
        return Queue.get(item.id).then(function (kept) {
          if (kept && kept.state === "refused" && kept.status === 400) {
            // Refused as it stands: post the form itself, so the server's page names the
            // problem beside the field (a refusal writes nothing and keeps the token free).
            return Queue.remove(item.id).then(function () { HTMLFormElement.prototype.submit.call(form); });
          }
          // Waiting, in conflict or waiting for a sign-in: it is safe in the list, with what
          // to do; the form is free for the next deal.
          if (kept) cleared();
          return null;
        });
      });
    }).catch(function () {
      // The device would not keep it (storage refused): post the form as it always was.
      HTMLFormElement.prototype.submit.call(form);
    });
  });

  window.addEventListener("online", function () { paint(); failures = 0; send(); });
  window.addEventListener("offline", paint);

  refresh().then(function (now) {
    // A sign-in since the last try may have put things right: those deals are tried again.
    var retry = now.filter(function (item) { return item.state === "signed-out"; });
    return Promise.all(retry.map(function (item) { item.state = "waiting"; return Queue.put(item); }));
  }).then(refresh).then(function () {
    if (navigator.onLine) send(); else schedule();
  });
})();
