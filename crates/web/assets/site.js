// Launchdir's one script: upvote buttons update in place (and more below: search boxes
// suggest, a paid launch is priced as it is shaped). The vote form is sent in the background
// (with its CSRF token, as the page would send it) and the button's pressed state and the count
// change where they are. Without this script, or when the answer is anything but the new state
// (not signed in, not confirmed, too many votes), the form is submitted as usual and the page
// that explains comes back.
"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("form.votes[method='post']") || !window.fetch) {
    return;
  }
  event.preventDefault();
  var button = form.querySelector("button");
  var choice = form.querySelector("input[name='action']");
  var count = form.querySelector(".count");
  var unit = form.querySelector(".unit");
  // `form.action` would be the form's input named "action": read the attribute.
  fetch(form.getAttribute("action"), {
    method: "POST",
    body: new URLSearchParams(new FormData(form)),
    headers: { Accept: "application/json" },
    credentials: "same-origin",
    redirect: "manual"
  })
    .then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.ok || type.indexOf("application/json") !== 0) {
        throw new Error("not the new state");
      }
      return response.json();
    })
    .then(function (state) {
      choice.value = state.voted ? "withdraw" : "vote";
      button.setAttribute("aria-pressed", state.voted ? "true" : "false");
      count.textContent = String(state.votes);
      unit.textContent = state.votes === 1 ? " vote" : " votes";
    })
    .catch(function () {
      form.submit();
    });
});

// A draft's page while the website is read and drafted: the progress line follows the draft,
// and the page reloads once it is ready. On the editor (`data-when-done="tell"`, fields being
// redrafted) it only says so: a reload would throw away what the person typed meanwhile.
// Without this script a link checks again.
(function () {
  var progress = document.querySelector("[data-draft-status]");
  if (!progress || !window.fetch) {
    return;
  }
  function poll() {
    fetch(progress.getAttribute("data-draft-status"), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (state) {
        if (!state) {
          return;
        }
        if (state.done) {
          if (progress.getAttribute("data-when-done") === "tell") {
            progress.textContent = "The redraft is ready: save your changes, then reload the page to see it.";
          } else {
            window.location.reload();
          }
          return;
        }
        progress.textContent = state.message;
        window.setTimeout(poll, 1000);
      })
      .catch(function () {
        window.setTimeout(poll, 3000);
      });
  }
  window.setTimeout(poll, 1000);
})();

// A listing's demo video: its preview is a link to the video's site, and nothing is loaded from
// that site until it is pressed. Pressed, the video's own player takes the preview's place.
document.addEventListener("click", function (event) {
  var link = event.target instanceof Element ? event.target.closest(".video[data-player] a.play") : null;
  if (!link) {
    return;
  }
  event.preventDefault();
  var section = link.closest(".video");
  var frame = document.createElement("iframe");
  frame.src = section.getAttribute("data-player");
  frame.title = section.getAttribute("data-title");
  frame.allow = "autoplay; fullscreen; picture-in-picture";
  frame.setAttribute("allowfullscreen", "");
  link.replaceWith(frame);
});

// Search boxes suggest as someone types: a few products and categories from
// /search/suggestions fill the box's list (a datalist, so the browser shows and the keyboard
// chooses them). Without this script the box is an ordinary search box.
(function () {
  var list = document.getElementById("search-suggestions");
  if (!list || !window.fetch) {
    return;
  }
  var timer = null;
  var asked = "";
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || box.getAttribute("list") !== "search-suggestions") {
      return;
    }
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var typed = box.value.trim();
      if (typed.length < 2 || typed === asked) {
        return;
      }
      asked = typed;
      fetch("/search/suggestions?q=" + encodeURIComponent(typed), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.json() : { suggestions: [] };
        })
        .then(function (answer) {
          if (box.value.trim() !== typed) {
            return;
          }
          list.replaceChildren.apply(
            list,
            answer.suggestions.map(function (suggestion) {
              var option = document.createElement("option");
              option.value = suggestion.label;
              option.label = suggestion.kind === "category" ? "Category" : "Product";
              return option;
            })
          );
        })
        .catch(function () {});
    }, 150);
  });
})();

// A paid launch's price follows the maker's choices: the form is priced by the page's quote
// address (`data-quote`) as choices change, and the answer takes the price's place. Without
// this script, "Show the price" prices the form; when choices need attention, the price says
// so and that button shows the problems beside their fields.
(function () {
  var form = document.querySelector("form[data-quote]");
  var price = document.getElementById("quote");
  if (!form || !price || !window.fetch) {
    return;
  }
  var timer = null;
  var asked = 0;
  function requote() {
    var ask = ++asked;
    var body = new URLSearchParams(new FormData(form));
    body.set("action", "quote");
    fetch(form.getAttribute("data-quote"), { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (ask !== asked) {
          return;
        }
        if (html === null) {
          price.textContent = "Some choices need attention: press \u201cShow the price\u201d to see which.";
        } else {
          price.innerHTML = html;
        }
      })
      .catch(function () {});
  }
  form.addEventListener("change", function () {
    window.clearTimeout(timer);
    requote();
  });
  form.addEventListener("input", function (event) {
    if (event.target instanceof HTMLInputElement && event.target.type === "text") {
      window.clearTimeout(timer);
      timer = window.setTimeout(requote, 400);
    }
  });
})();

// A long list of choices (the editor's categories) gets a box that narrows it as someone types;
// without this script the whole list shows.
(function () {
  var box = document.querySelector("input[data-filter]");
  if (!box) {
    return;
  }
  var list = document.getElementById(box.getAttribute("data-filter"));
  box.parentElement.hidden = false;
  box.addEventListener("input", function () {
    var wanted = box.value.trim().toLowerCase();
    list.querySelectorAll("label[data-words]").forEach(function (label) {
      label.hidden = wanted !== "" && label.getAttribute("data-words").indexOf(wanted) < 0;
    });
  });
  // Enter in the filter box narrows the list; it does not send the form.
  box.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      event.preventDefault();
    }
  });
})();
