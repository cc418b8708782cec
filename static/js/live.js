/* Live parts of a page: an element with data-live-url is replaced by that URL's HTML.

   Pushed: with data-live-stream (a Server-Sent Events URL the page was rendered with) the part
   changes when the server announces a change of what it shows, and not otherwise: a public
   part's new HTML comes in the stream itself (event "fragment"), any other part is refetched
   (event "change"); "stop" says nothing more will change. The browser reconnects a lost stream by itself, sending the id of the last change it heard of
   (Last-Event-ID); the server then announces at once whatever it missed. Once the stream is
   open again after being down (a phone offline for a while), and when the browser says it is
   back online, every part refetches what it shows: the screen is right the moment it is back.

   Polled (the fallback): without a stream, without EventSource, or while the stream is down,
   the part is refetched every data-live-every seconds (default 5) while the page is visible.

   A part whose topics change with what it shows (a player's page follows them from table to
   table) carries an element with data-live-restream (its next stream) and data-live-topics:
   when those topics differ from the part's own (data-live-topics), it listens there instead.

   A part whose content follows a clock as well as its changes (a projector turning its pages)
   says so with data-live-turn (seconds): it is also refetched that often while pushed.

   The server answers a fragment with the header X-Live-Stop when nothing more will change (a
   closed session, a decided deal): the part stops listening and polling.

   Only a fragment is ever shown: an answer that is redirected (to the login page), refused
   (403, 404, 410) or a whole page is not pasted in. The part keeps what it shows, stops, and
   says so beside it in the words of its data-live-gone (a table link replaced by the desk). */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };

  var streams = {}; // one EventSource per stream URL, shared by the parts that name it
  var REFUSED = { 401: true, 403: true, 404: true, 410: true };
  var WHOLE_PAGE = /^\s*(<!doctype|<html[\s>])/i;
  var RETRY_CLOSED = 30000; // the live server's Retry-After (live/capacity.py), in ms

  function subscribe(url, part) {
    var entry = streams[url];
    if (!entry) {
      entry = streams[url] = { source: null, parts: [], down: false };
      listen(entry, url);
    }
    entry.parts.push(part);
    return entry;
  }

  function listen(entry, url) {
    entry.source = new EventSource(url);
    entry.source.addEventListener("open", function () {
      // Back after being down (offline, a lost connection): what was missed meanwhile is
      // fetched now, not at the next change.
      var back = entry.down;
      entry.down = false;
      entry.parts.forEach(function (p) { p.pushed(true); if (back) p.refetch(); });
    });
    entry.source.addEventListener("error", function () {
      // CONNECTING: the browser retries by itself; CLOSED: it gave up (not a stream: a live
      // server holding all the streams it can answers 503). The parts poll meanwhile, and the
      // stream is asked for again after RETRY_CLOSED (spread, so that refused screens do not
      // come back all at once).
      entry.down = true;
      entry.parts.forEach(function (p) { p.pushed(false); });
      if (entry.source.readyState === 2 && !entry.again) {
        entry.again = setTimeout(function () {
          entry.again = null;
          if (streams[url] === entry && entry.source.readyState === 2) listen(entry, url);
        }, RETRY_CLOSED * (1 + Math.random()));
      }
    });
    entry.source.addEventListener("change", function () {
      entry.parts.forEach(function (p) { p.refetch(); });
    });
    entry.source.addEventListener("fragment", function (event) {
      entry.parts.forEach(function (p) { p.show(event.data); });
    });
    entry.source.addEventListener("stop", function () {
      entry.parts.slice().forEach(function (p) { p.stop(); });
    });
  }

  // A phone back on the network: a stream the browser gave up on is opened again (from the
  // page's first number: at worst one refetch too many), and every part shows what it missed.
  window.addEventListener("online", function () {
    Object.keys(streams).forEach(function (url) {
      var entry = streams[url];
      if (entry.source.readyState === 2) { // CLOSED
        entry.down = true;
        listen(entry, url);
      }
      entry.parts.forEach(function (p) { p.refetch(); });
    });
  });

  function unsubscribe(url, part) {
    var entry = streams[url];
    if (!entry) return;
    entry.parts = entry.parts.filter(function (p) { return p !== part; });
    if (!entry.parts.length) {
      entry.source.close();
      delete streams[url];
    }
  }

  function watch(node) {
    var url = node.dataset.liveUrl;
    var streamUrl = window.EventSource && node.dataset.liveStream
      ? node.dataset.liveStream + "&fragment=" + encodeURIComponent(url)
      : null;
    var topics = node.dataset.liveTopics || "";
    var every = Math.max(1, Number(node.dataset.liveEvery) || 5) * 1000;
    var turn = Math.max(0, Number(node.dataset.liveTurn) || 0) * 1000;
    var last = null;
    var timer = null;
    var stopped = false;
    var live = false; // the stream is open: no polling
    var busy = false;
    var again = false;

    function later() {
      clearTimeout(timer);
      if (stopped) return;
      if (!live) timer = setTimeout(tick, every);
      else if (turn) timer = setTimeout(tick, Math.max(1000, turn));
    }

    function stop() {
      stopped = true;
      clearTimeout(timer);
      if (streamUrl) unsubscribe(streamUrl, part);
    }

    function gone() {
      stop();
      var words = node.dataset.liveGone || gettext("This part is no longer updated: reload the page to see it as it is now.");
      var note = node.nextElementSibling;
      if (!note || !note.hasAttribute("data-live-gone")) {
        note = document.createElement("p");
        note.className = "note";
        note.setAttribute("role", "status");
        note.setAttribute("data-live-gone", "");
        node.parentNode.insertBefore(note, node.nextSibling);
      }
      note.textContent = words;
    }

    function show(html) {
      if (WHOLE_PAGE.test(html)) return gone(); // never a page inside the page
      // A form's CSRF token is fresh in every answer: alone, it is no change (a form being
      // filled in is not wiped by each poll).
      var seen = html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
      if (seen === last) return;
      last = seen;
      // A part opened by hand (a settle-up line's QR code) stays open through the update.
      var opened = Array.prototype.map.call(node.querySelectorAll("details[open][id]"), function (d) { return d.id; });
      node.innerHTML = html;
      restream();
      opened.forEach(function (id) {
        var again = document.getElementById(id);
        if (again && node.contains(again)) again.open = true;
      });
      node.dataset.liveUpdated = String(Date.now());
      node.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
    }

    // A part whose topics follow what it shows (a player's page: their table of the moment)
    // carries its next stream in its HTML; when its topics change it listens there instead.
    function restream() {
      var next = node.querySelector("[data-live-restream]");
      if (!next || !streamUrl || next.dataset.liveTopics === topics) return;
      unsubscribe(streamUrl, part);
      topics = next.dataset.liveTopics;
      streamUrl = next.dataset.liveRestream + "&fragment=" + encodeURIComponent(url);
      subscribe(streamUrl, part);
    }

    function tick() {
      if (stopped) return;
      if (document.visibilityState === "hidden" && !live) return later();
      if (busy) { again = true; return; } // one fetch at a time; the newest wins
      busy = true;
      fetch(url, { credentials: "same-origin", redirect: "manual", headers: { "X-Requested-With": "fetch" } })
        .then(function (response) {
          // A redirect (to the login page) is not followed: its type says so, status 0.
          if (response.type === "opaqueredirect" || response.redirected || REFUSED[response.status]) {
            return gone();
          }
          var stopHeader = response.headers.get("X-Live-Stop");
          return response.text().then(function (html) {
            if (response.ok) show(html);
            if (stopHeader) stop();
          });
        })
        .catch(function () {})
        .then(function () {
          busy = false;
          if (again) { again = false; tick(); } else later();
        });
    }

    var part = {
      pushed: function (open) {
        var was = live;
        live = open && !stopped;
        node.dataset.livePush = live ? "open" : "down";
        if (live) { clearTimeout(timer); later(); }
        else if (was || !timer) later();
      },
      refetch: function () {
        node.dataset.liveHeard = String(Date.now());
        tick();
      },
      show: function (html) {
        node.dataset.liveHeard = String(Date.now());
        show(html);
      },
      stop: function () { stop(); },
    };

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && !stopped && !live) {
        clearTimeout(timer);
        tick();
      }
    });
    if (streamUrl) subscribe(streamUrl, part);
    later(); // polls until the stream opens
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-url]"), watch);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
