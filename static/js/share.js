/* A page's "Share result" and "Standings image": the phone's share sheet (Web Share API) where it
   has one, else the text copied to the clipboard and the image downloaded. Without the script
   the links open the text and the image. The text is fetched as the page loads, so that the
   share sheet opens within the tap that asked for it. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var texts = {};

  function say(link, words) {
    var bar = link.closest("[data-share-bar]");
    var said = bar && bar.querySelector("[data-share-said]");
    if (said) said.textContent = words;
  }

  function fetchText(url) {
    if (!texts[url]) {
      texts[url] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("the text could not be read");
        return response.text();
      });
    }
    return texts[url];
  }

  function canShareFiles() {
    if (!navigator.canShare || !window.File) return false;
    try {
      return navigator.canShare({ files: [new File([""], "standings.png", { type: "image/png" })] });
    } catch (error) {
      return false;
    }
  }

  document.querySelectorAll("a[data-share-text]").forEach(function (link) {
    fetchText(link.dataset.shareText).catch(function () {});
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-share-text]");
    if (link) {
      event.preventDefault();
      fetchText(link.dataset.shareText).then(function (text) {
        if (navigator.share) {
          return navigator.share({ title: link.dataset.shareTitle || document.title, text: text })
            .then(function () { say(link, gettext("Shared.")); }, function () {});
        }
        if (navigator.clipboard) {
          return navigator.clipboard.writeText(text).then(function () {
            say(link, gettext("Copied: paste it into the group chat."));
          });
        }
        window.location.href = link.href;
      }).catch(function () { window.location.href = link.href; });
      return;
    }
    var image = event.target.closest("a[data-share-image]");
    // Without a share sheet that takes files, the link downloads the image as it is.
    if (!image || !canShareFiles()) return;
    event.preventDefault();
    fetch(image.dataset.shareImage, { credentials: "same-origin" })
      .then(function (response) { return response.blob(); })
      .then(function (blob) {
        var file = new File([blob], "standings.png", { type: "image/png" });
        if (navigator.canShare({ files: [file] })) {
          return navigator.share({ files: [file] }).then(function () { say(image, gettext("Shared.")); },
                                                         function () {});
        }
        window.location.href = image.href;
      })
      .catch(function () { window.location.href = image.href; });
  });
})();
