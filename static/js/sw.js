/* The service worker of the entry pages (served at /sw.js by scoring.views.offline, after
   static/js/offline-queue.js). It keeps what an entry page needs to open without a connection:

   - the pages an entry page asks it to keep (a "keep" message from static/js/offline-entry.js):
     asked for from the network first, so they stay current, and answered from the cache when
     there is no answer, or the answer is 502, 503 or 504 (a server restarting);
   - the scripts, styles and icons those pages use: answered from the cache at once and
     refreshed behind it.

   Every other request goes to the network untouched; form posts are never answered from here.
   With Background Sync it sends the waiting deals when the connection returns, even with no
   entry page open. */
"use strict";

var PAGES = "entry-pages-v1";
var ASSETS = "entry-assets-v1";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("entry-") === 0 && name !== PAGES && name !== ASSETS;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function pageKey(url) {
  var u = new URL(url);
  return u.origin + u.pathname;
}

function keep(cacheName, url) {
  return caches.open(cacheName).then(function (cache) {
    var key = cacheName === PAGES ? pageKey(url) : url;
    return cache.match(key).then(function (found) {
      if (found) return null;
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok && !response.redirected) return cache.put(key, response);
        return null;
      });
    });
  }).catch(function () { return null; });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep") {
    event.waitUntil(Promise.all(
      [keep(PAGES, data.page)].concat((data.assets || []).map(function (url) { return keep(ASSETS, url); }))
    ));
  } else if (data.type === "forget") {
    event.waitUntil(caches.delete(PAGES));
  }
});

function fromNetworkFirst(request) {
  var key = pageKey(request.url);
  return caches.open(PAGES).then(function (cache) {
    return cache.match(key).then(function (kept) {
      if (!kept) return fetch(request);  // not an entry page: untouched
      return fetch(request).then(function (response) {
        if ([502, 503, 504].indexOf(response.status) >= 0) return kept;
        if (response.ok && !response.redirected) cache.put(key, response.clone());
        return response;
      }, function () { return kept; });
    });
  });
}

function fromCacheFirst(request) {
  return caches.open(ASSETS).then(function (cache) {
    return cache.match(request).then(function (kept) {
      if (!kept) return fetch(request);  // not one an entry page asked to keep: untouched
      fetch(request).then(function (response) {
        if (response.ok) return cache.put(request, response);
        return null;
      }).catch(function () { return null; });
      return kept;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fromNetworkFirst(request));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(fromCacheFirst(request));
  }
});

function tellPages(report) {
  return self.clients.matchAll({ type: "window" }).then(function (pages) {
    var sent = report.sent.map(function (done) { return { item: done.item, url: done.url, reasons: done.reasons }; });
    pages.forEach(function (page) { page.postMessage({ type: "queue-changed", sent: sent }); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== self.OfflineQueue.SYNC_TAG) return;
  event.waitUntil(self.OfflineQueue.sendAll().then(function (report) {
    return tellPages(report).then(function () {
      // Still waiting: rejecting asks the browser to try this sync again later.
      if (report.stopped) throw new Error("the server is not taking deals yet");
    });
  }));
});
