// The phone pages (duplicate tables, cup rooms, free-deal tables): an outbox of deal entries
// (issue 23; README, "Phones on the room's Wi-Fi").
//
// A deal form's submit puts the entry in the outbox (localStorage "duplitarot-outbox": key,
// url, fields, deal, code, round, saved_at; never shown as an outcome), then sends it with its
// Idempotency-Key and asks for JSON. An answer (stored, replayed, refused, invalid) removes it
// and shows it at its deal; no answer (offline, timeout, 5xx) keeps it, and so does a 429 (too
// many refused entries from this code: not sent again before its Retry-After): the card says
// it waits on this phone, a badge counts the waiting ones, and they are sent again when the
// phone comes back online, when the page opens, every 20 s and on "Send again now". The texts come from
// the page (translated by the server); without JavaScript the forms post as they always did.
(function () {
  "use strict";

  var STORE = "duplitarot-outbox";
  var FLASH = "duplitarot-outbox-said"; // sessionStorage: the last answer, across the reload
  var TIMEOUT_MS = 15000;
  var RETRY_MS = 20000;
  var SHELL_RETRY_MS = 5000; // the offline shell opens the page again

  var root = document.getElementById("phone-outbox");
  var page = document.querySelector(".table-phone");
  if (!root || !page) {
    return;
  }
  var shell = root.hasAttribute("data-shell"); // the offline shell: the code is in the address
  var code = root.getAttribute("data-code") || "";
  if (shell) {
    var parts = window.location.pathname.split("/").filter(Boolean);
    code = parts.length > 1 ? decodeURIComponent(parts[parts.length - 1]) : "";
  }
  var round = root.getAttribute("data-round") || "";
  var doneUrl = root.getAttribute("data-done-url") || ""; // where a finished round opens
  var inflight = {}; // key -> true while this tab sends it
  var shown = {}; // key -> entry this tab shows as waiting (another tab may send it)
  var retryTimer = null;
  var holdTimer = null; // the send after a 429's Retry-After

  var texts = root.querySelector("template.outbox-texts");

  function text(name) {
    var el = texts ? texts.content.querySelector('[data-text="' + name + '"]') : null;
    return el ? el.textContent : "";
  }

  // ------------------------------------------------------------------------- the outbox
  function readAll() {
    try {
      var list = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list.filter(function (e) { return e && e.key; }) : [];
    } catch (err) {
      return [];
    }
  }

  function writeAll(list) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(list));
      return true;
    } catch (err) {
      return false;
    }
  }

  function mine() {
    return readAll().filter(function (e) { return e.code === code; });
  }

  function find(key) {
    return readAll().filter(function (e) { return e.key === key; })[0] || null;
  }

  function put(entry) {
    var list = readAll().filter(function (e) { return e.key !== entry.key; });
    list.push(entry);
    return writeAll(list);
  }

  function remove(key) {
    writeAll(readAll().filter(function (e) { return e.key !== key; }));
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // crypto.randomUUID needs a secure origin
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : root.getAttribute("data-csrf") || "";
  }

  // -------------------------------------------------------------------------- the page
  function cardOf(entry) {
    // Only the card of the same deal of the round this page shows (a free-deal party numbers
    // its deals from 1 again).
    if (String(entry.round) !== round) {
      return null;
    }
    return document.getElementById("deal-" + entry.deal);
  }

  function notice(className, role, parts) {
    var box = document.createElement("div");
    box.className = "outbox-notice " + className;
    box.setAttribute("role", role);
    parts.forEach(function (part, index) {
      if (!part) {
        return;
      }
      var el = document.createElement(index === 0 ? "strong" : "span");
      el.textContent = part.charAt(0).toUpperCase() + part.slice(1); // a sentence
      box.appendChild(el);
    });
    return box;
  }

  function clearNotices(card) {
    card.querySelectorAll(".outbox-notice").forEach(function (el) { el.remove(); });
  }

  function afterHeading(card, node) {
    var heading = card.querySelector("h2");
    if (heading && heading.nextSibling) {
      card.insertBefore(node, heading.nextSibling);
    } else {
      card.appendChild(node);
    }
  }

  function showWaiting(entry) {
    var card = cardOf(entry);
    if (!card) {
      return;
    }
    clearNotices(card);
    card.querySelectorAll("form.deal-form").forEach(function (form) { form.hidden = true; });
    card.classList.add("waiting");
    shown[entry.key] = entry;
    var box = notice("waiting", "status", [text("waiting")]);
    box.setAttribute("data-key", entry.key);
    afterHeading(card, box);
  }

  function showSending(form) {
    var button = form.querySelector("button[type=submit]");
    if (button) {
      button.disabled = true;
      button.setAttribute("data-label", button.textContent);
      button.textContent = text("sending");
    }
  }

  function restoreButton(form) {
    var button = form.querySelector("button[type=submit][data-label]");
    if (button) {
      button.disabled = false;
      button.textContent = button.getAttribute("data-label");
      button.removeAttribute("data-label");
    }
  }

  function replaceCard(entry, html) {
    var card = cardOf(entry);
    if (!card || !html) {
      return card;
    }
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.querySelector("#deal-" + entry.deal) || holder.firstElementChild;
    if (!fresh) {
      return card;
    }
    card.replaceWith(fresh);
    if (window.phonePreview) {
      window.phonePreview.scan(fresh);  // its form's live preview (js/preview.js)
    }
    return fresh;
  }

  function fillForm(form, entry) {
    // The player's own entry, back in its form to be fixed (an invalid answer only).
    (entry.fields || []).forEach(function (pair) {
      var fields = form.querySelectorAll('[name="' + CSS.escape(pair[0]) + '"]');
      fields.forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") {
          field.checked = field.value === pair[1];
        } else if (field.type !== "hidden") {
          field.value = pair[1];
        }
      });
    });
  }

  function markErrors(form, errors) {
    var first = null;
    Object.keys(errors || {}).forEach(function (name) {
      var messages = [].concat(errors[name]).join(" ");
      var field = name === "__all__" ? null : form.querySelector('[name$="-' + CSS.escape(name) + '"]');
      var holder = field ? field.closest("fieldset, p, .points-field") : null;
      var error = document.createElement(holder ? "span" : "p");
      error.className = "errorlist outbox-error";
      if (field && field.id) {
        error.id = (field.type === "radio" ? "id_" + field.name : field.id) + "-error";
      }
      error.textContent = messages;
      if (holder) {
        holder.classList.add("invalid");
        holder.appendChild(error);
        if (field.type !== "radio") {
          field.setAttribute("aria-invalid", "true");
        }
        first = first || field;
      } else {
        form.insertBefore(error, form.firstChild);
      }
    });
    return first;
  }

  function showAnswer(entry, answer) {
    var card = replaceCard(entry, answer.card_html);
    if (!card) {
      elsewhere();
      if (answer.status === "refused" || answer.status === "invalid") {
        listAnswer(entry, answer);
      }
      return;
    }
    clearNotices(card);
    card.classList.remove("waiting");
    if (answer.status === "stored" || answer.status === "replayed") {
      afterHeading(card, notice("sent", "status", [answer.message || text("sent")]));
      // The address names the deal, as after a plain post (a reload opens there).
      var here = window.location.pathname + window.location.search;
      window.history.replaceState(window.history.state, "", here + "#deal-" + entry.deal);
      return;
    }
    card.classList.add("refused");
    afterHeading(card, notice("refused", "alert", [text("refused"), answer.message, answer.fix]));
    var form = card.querySelector("form.deal-form");
    card.scrollIntoView({ block: "start" });
    if (form && answer.status === "invalid") {
      form.hidden = false;
      restoreButton(form);
      var field = form.querySelector("[autofocus], [aria-invalid=true]");
      if (!form.querySelector(".errorlist")) {
        fillForm(form, entry);
        field = markErrors(form, answer.errors);
      }
      if (field) {
        focusToFix(field); // the keypad opens on the field to fix
      }
    }
  }

  function focusToFix(field) {
    // The refused value is selected: what the player types replaces it (a refused "95" and
    // then "46" typed must give 46, not 9546).
    field.focus({ preventScroll: true });
    if (typeof field.select === "function" && /^(text|number|search|tel)$/.test(field.type)) {
      field.select();
    }
  }

  function listAnswer(entry, answer) {
    // A refused entry whose deal is not on this page (another round): said in the outbox box.
    var list = root.querySelector(".outbox-answers");
    var item = document.createElement("li");
    item.appendChild(
      notice("refused", "alert", [
        text("deal").replace("{n}", entry.deal) + " " + text("refused"),
        answer.message,
        answer.fix,
      ])
    );
    list.appendChild(item);
  }

  function elsewhere() {
    // Waiting entries of this code whose deal is not on this page: "Deal 7: waiting".
    var list = root.querySelector(".outbox-elsewhere");
    list.textContent = "";
    mine().forEach(function (entry) {
      if (cardOf(entry)) {
        return;
      }
      var item = document.createElement("li");
      item.textContent = text("deal_waiting").replace("{n}", entry.deal);
      list.appendChild(item);
    });
  }

  function badge() {
    var count = mine().length;
    var counter = root.querySelector(".outbox-count");
    root.setAttribute("data-count", String(count));
    root.querySelector(".outbox-badge").hidden = count === 0;
    var rule = new Intl.PluralRules(document.documentElement.lang || "fr").select(count);
    counter.textContent = text(rule === "one" ? "count_one" : "count_other").replace("{n}", count);
    root.hidden = count === 0 && !root.querySelector(".outbox-answers li");
    elsewhere();
    if (count && retryTimer === null && !shell) {
      retryTimer = window.setTimeout(function () {
        retryTimer = null;
        sendAll();
      }, RETRY_MS);
    }
  }

  // ------------------------------------------------------------------------- sending
  function body(entry) {
    var data = new URLSearchParams();
    (entry.fields || []).forEach(function (pair) { data.append(pair[0], pair[1]); });
    data.append("csrfmiddlewaretoken", csrfToken());
    return data;
  }

  function send(entry) {
    if (inflight[entry.key]) {
      return Promise.resolve(null);
    }
    if (held(entry)) {
      showWaiting(entry); // answered 429: not before its Retry-After
      badge();
      return Promise.resolve(null);
    }
    inflight[entry.key] = true;
    var headers = {
      "Accept": "application/json",
      "Idempotency-Key": entry.key,
      "X-CSRFToken": csrfToken(),
    };
    if (entry.tries > 0) {
      headers["X-Entry-Kept-Since"] = entry.saved_at;
    }
    entry.tries = (entry.tries || 0) + 1;
    if (find(entry.key)) {
      put(entry); // the next try says the entry waited
    }
    var controller = new AbortController();
    var timer = window.setTimeout(function () { controller.abort(); }, TIMEOUT_MS);
    return fetch(entry.url, {
      method: "POST",
      body: body(entry),
      headers: headers,
      credentials: "same-origin",
      signal: controller.signal,
    })
      .then(function (response) {
        if (response.status === 429) {
          hold(entry, response); // too many refusals from this code: kept, sent again later
          return null;
        }
        var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        if (!json || response.status >= 500) {
          return null;
        }
        return response.json().catch(function () { return null; });
      })
      .catch(function () { return null; })
      .then(function (answer) {
        window.clearTimeout(timer);
        delete inflight[entry.key];
        var known = ["stored", "replayed", "refused", "invalid"];
        if (!answer || known.indexOf(answer.status) < 0) {
          showWaiting(entry);
          badge();
          return null;
        }
        remove(entry.key);
        delete shown[entry.key];
        showAnswer(entry, answer);
        badge();
        return answer;
      });
  }

  // ------------------------------------------------------ 429: kept, sent after Retry-After
  function held(entry) {
    return entry.not_before && Date.now() < entry.not_before;
  }

  function hold(entry, response) {
    // The entry stays in the outbox, not sent again before the server's Retry-After (seconds;
    // a minute when it does not say), then sent by the retry it schedules.
    var seconds = parseInt(response.headers.get("Retry-After") || "", 10);
    if (isNaN(seconds) || seconds < 1) {
      seconds = 60;
    }
    entry.not_before = Date.now() + seconds * 1000;
    if (find(entry.key)) {
      put(entry);
    }
    if (holdTimer === null) {
      holdTimer = window.setTimeout(function () {
        holdTimer = null;
        sendAll();
      }, seconds * 1000 + 250);
    }
  }

  function refreshShown() {
    // Sent meanwhile by another tab (or before a Back): this one asks again (a replay,
    // nothing written) to show the answer at its deal.
    var kept = mine().map(function (e) { return e.key; });
    Object.keys(shown).forEach(function (key) {
      if (kept.indexOf(key) < 0 && !inflight[key]) {
        var entry = shown[key];
        delete shown[key];
        send(entry);
      }
    });
  }

  function sendOthers() {
    // Entries kept by another code's page (the phone went to another table, or that table's
    // code changed): sent to their own address, never shown here. Once the server answered
    // (stored, or refused and recorded for the director) they leave the phone; a code that no
    // longer exists (404) can take them nowhere: they are cleared too.
    readAll().filter(function (e) { return e.code !== code && !inflight[e.key] && !held(e); })
      .forEach(function (entry) {
        inflight[entry.key] = true;
        fetch(entry.url, {
          method: "POST",
          body: body(entry),
          headers: {
            "Accept": "application/json",
            "Idempotency-Key": entry.key,
            "X-CSRFToken": csrfToken(),
            "X-Entry-Kept-Since": entry.saved_at,
          },
          credentials: "same-origin",
        })
          .then(function (response) {
            var type = response.headers.get("Content-Type") || "";
            var json = type.indexOf("application/json") === 0;
            if (response.status === 429) {
              hold(entry, response); // kept, sent again after Retry-After
            } else if (response.status === 404 || (json && response.status < 500)) {
              remove(entry.key);
            }
          })
          .catch(function () {})
          .then(function () { delete inflight[entry.key]; });
      });
  }

  function sendAll() {
    sendOthers();
    refreshShown();
    var entries = mine();
    entries.forEach(function (entry) { showWaiting(entry); });
    badge();
    return Promise.all(entries.map(send)).then(function (answers) {
      finishIfDone(answers);
      return answers;
    });
  }

  function finishIfDone(answers) {
    // The round's last deal is stored: open the page again (the recap, where to go next).
    var stored = answers.filter(function (a) {
      return a && (a.status === "stored" || a.status === "replayed");
    });
    if (!stored.length || mine().length || document.querySelector("form.deal-form:not([hidden])")) {
      return;
    }
    if (document.querySelector(".outbox-notice.refused")) {
      return;
    }
    // The reloaded page still says the last deal was saved (as a plain post's message does).
    var last = stored[stored.length - 1];
    var here = window.location.pathname + window.location.search;
    var target = doneUrl ? doneUrl.split("#")[0] : here;
    var anchor = doneUrl ? doneUrl.split("#")[1] || "" : "deal-" + last.deal;
    fetch(target, { credentials: "same-origin" })
      .then(function (response) {
        if (response.ok) {
          try {
            var said = { code: code, deal: last.deal, message: last.message };
            window.sessionStorage.setItem(FLASH, JSON.stringify(said));
          } catch (err) {
            // the page opens without the message
          }
          window.location.replace(target + "#" + anchor);
        }
      })
      .catch(function () {});
  }

  function onSubmit(event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("deal-form")) {
      return;
    }
    var card = form.closest(".deal");
    var deal = card ? parseInt(card.id.replace("deal-", ""), 10) : NaN;
    if (!code || isNaN(deal)) {
      return; // the plain post
    }
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") {
        fields.push([name, value]);
      }
    });
    var entry = {
      key: newKey(),
      url: form.action.split("#")[0],
      fields: fields,
      deal: deal,
      code: code,
      round: round,
      saved_at: new Date().toISOString(),
      tries: 0,
    };
    if (!put(entry)) {
      return; // no room on this phone: the plain post
    }
    event.preventDefault();
    showSending(form);
    badge();
    send(entry).then(function (answer) { finishIfDone([answer]); });
  }

  // ------------------------------------------------------------------- when to send again
  if (shell) {
    // No form, no token here: the page itself, once it loads, sends what waits. It is tried
    // again when the phone comes back online, and every few seconds while the phone says it
    // is online: the shell then opened because the server did not answer (restarting, the
    // laptop asleep, the Wi-Fi still connecting when "online" came), and nothing else would
    // try again.
    var reload = function () { window.location.reload(); };
    root.querySelector(".outbox-resend").hidden = true; // the shell's own "Try again"
    window.addEventListener("online", reload);
    window.setInterval(function () {
      if (navigator.onLine) {
        reload();
      }
    }, SHELL_RETRY_MS);
    badge();
    return;
  }
  (function sayAgain() {
    var said = null;
    try {
      said = JSON.parse(window.sessionStorage.getItem(FLASH) || "null");
      window.sessionStorage.removeItem(FLASH);
    } catch (err) {
      said = null;
    }
    var card = said && said.code === code ? document.getElementById("deal-" + said.deal) : null;
    if (card && said.message) {
      afterHeading(card, notice("sent", "status", [said.message]));
    }
  })();
  document.addEventListener("submit", onSubmit);
  root.querySelector(".outbox-resend").addEventListener("click", sendAll);
  window.addEventListener("online", sendAll);
  window.addEventListener("pageshow", sendAll); // opening, reload, and back from the bfcache
  window.addEventListener("storage", function (event) {
    if (event.key !== STORE) {
      return;
    }
    badge();
    refreshShown();
  });

  // A refused post (no JavaScript answer) opens at its deal (the form posts to "#deal-N"). A
  // page opened at a fragment skips "autofocus" (HTML spec), and Chromium clears the focus
  // when it scrolls to a fragment that is not focusable: once the page has loaded and
  // scrolled, focus the field in error without moving the page away from the deal.
  window.addEventListener("load", function () {
    window.setTimeout(function () {
      var field = document.querySelector(".table-phone .deal.refused [autofocus]");
      if (field && document.activeElement !== field) {
        focusToFix(field);
      }
    }, 0);
  });

  // A secure origin (HTTPS, localhost): a service worker opens the page with no network.
  if (window.isSecureContext && "serviceWorker" in navigator && root.getAttribute("data-sw")) {
    navigator.serviceWorker.register(root.getAttribute("data-sw"), { scope: "/" }).catch(function () {});
  }
})();
