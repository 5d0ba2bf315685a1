// The phone pages' live preview of the marks (clubs/phone/_card.html), without htmx: a deal's
// form names the preview's URL (data-hx-post) and its target (data-hx-target); a change of a
// choice asks at once, typing asks 400 ms after the last key, only when the form's values
// changed. The server answers the fragment (200) or the errors naming their fields (422): both
// are shown. Everything works without it: the marks show after saving.
(function () {
  "use strict";
  function watch(form) {
    var url = form.getAttribute("data-hx-post");
    var target = document.querySelector(form.getAttribute("data-hx-target"));
    if (!url || !target || !window.fetch || !window.FormData) return;
    var last = null;
    var timer = null;
    function ask() {
      timer = null;
      var data = new FormData(form);
      var values = new URLSearchParams(data).toString();
      if (values === last) return;
      last = values;
      fetch(url, { method: "POST", body: data, headers: { "HX-Request": "true" } })
        .then(function (answer) {
          if (answer.status !== 200 && answer.status !== 422) return null;
          return answer.text();
        })
        .then(function (html) {
          if (html !== null && values === last) target.innerHTML = html;
        })
        .catch(function () {});
    }
    form.addEventListener("change", function () {
      if (timer) window.clearTimeout(timer);
      ask();
    });
    form.addEventListener("keyup", function () {
      if (timer) window.clearTimeout(timer);
      timer = window.setTimeout(ask, 400);
    });
  }
  function scan(root) {
    var forms = (root || document).querySelectorAll("form.deal-form[data-hx-post]");
    for (var i = 0; i < forms.length; i++) {
      if (!forms[i].hasAttribute("data-previewed")) {
        forms[i].setAttribute("data-previewed", "");
        watch(forms[i]);
      }
    }
    if (root && root.matches && root.matches("form.deal-form[data-hx-post]")) scan(root.parentNode);
  }
  // The phone script (js/phone.js) puts new cards in the page: it has their forms watched too.
  window.phonePreview = { scan: scan };
  function start() {
    scan(document);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
