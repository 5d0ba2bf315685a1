// The table's phone page: a refused entry opens at its deal (the form posts to "#deal-N").
// A page opened at a fragment skips "autofocus" (HTML spec), and Chromium clears the focus when
// it scrolls to a fragment that is not focusable: once the page has loaded and scrolled, focus
// the field in error without moving the page away from the deal. Everything works without it.
window.addEventListener("load", function () {
  window.setTimeout(function () {
    var field = document.querySelector(".table-phone .deal.refused [autofocus]");
    if (field && document.activeElement !== field) {
      field.focus({ preventScroll: true });
    }
  }, 0);
});
