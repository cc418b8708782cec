/* Deals waiting on this device to be sent (IndexedDB), and the one way they are sent: the entry
   page (static/js/offline-entry.js) and the service worker (static/js/sw.js, on Background Sync)
   both use this file, so a deal is sent by the same code wherever it is sent from.

   A deal is kept as the form's fields exactly as they were posted, its form token included: the
   server answers a form sent again with the same token with the first answer and writes nothing
   (clubs.pages.form_post_once), so a deal whose answer was lost is sent again safely and counted
   once. Deals are sent oldest first, one at a time (a Web Lock, so a page and the worker never
   send at once); a deal that needs its enterer's attention holds the deals entered after it on
   the same form, so none takes its number. No DOM here: this runs in the worker too. */
(function (scope) {
  "use strict";

  // The page's language where the page runs this (Django's JavaScript catalog); the worker has
  // no catalog: what it says is kept in English with its values (``words``), and the page puts
  // it into its own language when it shows it (said).
  var gettext = scope.gettext || function (text) { return text; };
  var gettext_noop = scope.gettext_noop || function (text) { return text; };
  var interpolate = scope.interpolate || function (text, values) {
    return values.reduce(function (out, value) { return out.replace("%s", value); }, text);
  };
  var SIGNED_OUT = gettext_noop("You were signed out. Sign in again on this device: the deal stays here and is sent once you have.");
  var ANSWERED = gettext_noop("The server answered %s; trying again.");
  var REFUSED = gettext_noop("The server refused it (%s).");
  var NO_CONNECTION = gettext_noop("No connection to the server; trying again.");

  /* A sentence of the queue's own: in the language of where it runs (``message``), and as its
     English and values (``words``) for the page to say again in its own. */
  function saying(text, values) {
    values = values || [];
    return { message: interpolate(gettext(text), values), words: { text: text, values: values } };
  }

  /* What a deal kept here says, in the page's language: the queue's own sentences translated
     when shown (the worker kept them in English), the server's refusal as the server wrote it. */
  function said(item) {
    if (item.words && item.words.text) return interpolate(gettext(item.words.text), item.words.values || []);
    return item.message || "";
  }

  function outcome(fields, words) {
    Object.keys(words).forEach(function (key) { fields[key] = words[key]; });
    return fields;
  }

  var DB_NAME = "rummyclub-offline";
  var STORE = "deals";
  var LOCK = "rummyclub-offline-send";
  /* Answers that say "not now" rather than "no": the deal stays and is sent again. */
  var RETRY_STATUSES = [408, 425, 429, 500, 502, 503, 504];

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
        tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function all() {
    return run("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.id - b.id; });
    });
  }
  function add(item) { return run("readwrite", function (store) { return store.add(item); }); }
  function put(item) { return run("readwrite", function (store) { return store.put(item); }); }
  function remove(id) { return run("readwrite", function (store) { return store.delete(id); }); }
  function get(id) { return run("readonly", function (store) { return store.get(id); }); }

  function withLock(work) {
    if (scope.navigator && scope.navigator.locks) return scope.navigator.locks.request(LOCK, work);
    return work();
  }

  /* The refusal a page shows in its alert (templates/_error.html), as text, without its
     leading "Not done:" (in whatever language the page was: it is the alert's first <strong>). */
  function alertText(html) {
    var found = /id="form-error"[^>]*>([\s\S]*?)<\/div>/.exec(html || "");
    if (!found) return "";
    var inner = found[1].replace(/^\s*<strong>[\s\S]*?<\/strong>/, "");
    return decode(inner.replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
  }

  /* A deal stored and then rejected by the rules: its page lists the reasons
     (templates/scoring/_deal_body.html). Empty while it is still being checked, or accepted. */
  function reasonsFrom(html) {
    var list = /<ul class="reasons"[^>]*>([\s\S]*?)<\/ul>/.exec(html || "");
    if (!list) return [];
    return list[1].split(/<li>/).slice(1).map(function (item) {
      return decode(item.replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
    });
  }

  function decode(text) {
    return text.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  function csrfFrom(html) {
    var found = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html || "");
    return found ? found[1] : null;
  }

  function body(fields) {
    var params = new URLSearchParams();
    fields.forEach(function (pair) { params.append(pair[0], pair[1]); });
    return params;
  }

  function post(item) {
    return fetch(item.url, {
      method: "POST", body: body(item.fields), credentials: "same-origin", redirect: "follow",
      headers: { "X-Offline-Entry": "1" }
    });
  }

  function setField(item, name, value) {
    var kept = item.fields.filter(function (pair) { return pair[0] !== name; });
    if (value !== null) kept.push([name, value]);
    item.fields = kept;
  }

  /* One deal sent: what became of it. "sent" (with the page the server went on to), "wait" (no
     answer, or "not now": it stays), or "attention" (refused, in conflict, or signed out: it stays
     until its enterer corrects, resends or discards it). */
  function sendOne(item, loginPath, freshCsrf) {
    return post(item).then(function (response) {
      var path = new URL(response.url).pathname;
      if (response.redirected && response.ok && path.indexOf(loginPath) === 0) {
        return outcome({ outcome: "attention", state: "signed-out" }, saying(SIGNED_OUT));
      }
      if (response.redirected && response.ok) {
        return response.text().then(function (html) {
          return {
            outcome: "sent", url: response.url + (html.indexOf('id="result"') >= 0 ? "#result" : ""),
            reasons: reasonsFrom(html)
          };
        });
      }
      if (RETRY_STATUSES.indexOf(response.status) >= 0) {
        return outcome({ outcome: "wait" }, saying(ANSWERED, [response.status]));
      }
      return response.text().then(function (html) {
        if (response.status === 403 && !freshCsrf) {
          // The page the deal was typed on is older than the sign-in: ask for the form again for
          // a valid CSRF token, then send once more.
          return fetch(item.url, { credentials: "same-origin" }).then(function (page) {
            return page.text();
          }).then(function (fresh) {
            var token = csrfFrom(fresh);
            if (!token) return outcome({ outcome: "attention", state: "signed-out" }, saying(SIGNED_OUT));
            setField(item, "csrfmiddlewaretoken", token);
            return put(item).then(function () { return sendOne(item, loginPath, true); });
          });
        }
        var refusal = alertText(html);
        // A refused entry page comes back as the page is now: the number it gives the next deal.
        var next = /data-deal-number="(\d+)"/.exec(html);
        return outcome({
          outcome: "attention", state: response.status === 409 ? "conflict" : "refused",
          status: response.status, serverNext: next ? parseInt(next[1], 10) : null
        }, refusal ? { message: refusal, words: null } : saying(REFUSED, [response.status]));
      });
    }, function () {
      return outcome({ outcome: "wait" }, saying(NO_CONNECTION));
    });
  }

  /* Send every deal that may go, oldest first. Resolves to { sent: [{item, url}], waiting: n,
     attention: n, stopped: bool }. ``only`` limits sending to one deal (a page sending what was
     just submitted still sends the older ones first). */
  function sendAll(options) {
    options = options || {};
    var loginPath = options.loginPath || "/login/";
    return withLock(function () {
      return all().then(function (items) {
        var report = { sent: [], waiting: 0, attention: 0, stopped: false };
        var held = {};
        var index = 0;
        function next() {
          if (index >= items.length) return report;
          var item = items[index++];
          if (item.state && item.state !== "waiting") { held[item.url] = true; report.attention++; return next(); }
          if (held[item.url] || report.stopped) { report.waiting++; return next(); }
          return sendOne(item, loginPath, false).then(function (result) {
            if (result.outcome === "sent") {
              return remove(item.id).then(function () {
                report.sent.push({ item: item, url: result.url, reasons: result.reasons });
                return next();
              });
            }
            item.tries = (item.tries || 0) + 1;
            item.message = result.message;
            item.words = result.words || null;
            if (result.outcome === "wait") {
              report.stopped = true;  // the server is not taking deals now: none goes past this one
              report.waiting++;
            } else {
              item.state = result.state;
              item.status = result.status || null;
              item.serverNext = result.serverNext || null;
              held[item.url] = true;
              report.attention++;
            }
            return put(item).then(next);
          });
        }
        return next();
      });
    });
  }

  scope.OfflineQueue = {
    all: all, add: add, put: put, remove: remove, get: get, sendAll: sendAll, setField: setField,
    said: said,
    SYNC_TAG: "rummyclub-deals"
  };
})(self);
