// The round clock (tournaments.views.clock): counts the position's time left down on the page.
// The server gives the end time and its own instant; the page estimates its offset from the
// server's clock (the answer's instant plus half the round trip, from the fastest of the last
// answers) and counts on its own clock corrected by that offset: a phone whose clock is wrong
// shows the same time left as the projector. The clock is asked again every few seconds
// (pause, more time, a new position); without network the page counts on from what it knows.
// The clock names the position it times; a table's phone whose table is at another position
// names its table's and counts nothing down. Once the event no longer runs, it is gone.
(function () {
  "use strict";
  var POLL_MS = 5000;  // a clock set: pause, more time and a new position show within 5 s
  var IDLE_POLL_MS = 30000;  // no clock: a room's phones ask rarely (it starts within 30 s)
  var SAMPLES = 8;
  var ENDING_MS = 120000;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return (hours ? hours + ":" + pad(minutes) : String(minutes)) + ":" + pad(seconds);
  }

  function start(box) {
    var url = box.getAttribute("data-clock-url");
    var label = box.querySelector(".clock-label");
    var time = box.querySelector(".clock-time");
    var over = box.querySelector(".clock-over");
    var note = box.querySelector(".clock-note");
    var samples = [];  // [round trip, offset]
    var state = null;

    function offset() {
      var best = null;
      samples.forEach(function (sample) { if (!best || sample[0] < best[0]) best = sample; });
      return best ? best[1] : 0;
    }

    function left() {
      if (!state) return null;
      if (state.state === "running") return state.ends_at_ms - (Date.now() + offset());
      if (state.state === "paused") return state.left_ms;
      return null;
    }

    // A table's phone (its answer gives the table's position, table_round): the clock is
    // its own only while it times the table's position; else the phone names the table's
    // position, says which one the clock times, and counts nothing down.
    function elsewhere() {
      return state && "table_round" in state && state.table_round !== state.round;
    }

    function hide() {
      box.hidden = true;
      box.removeAttribute("data-left-seconds");
    }

    function render() {
      var ms = left();
      if (!state || state.state === "idle" || ms === null || (elsewhere() && state.table_round === null)) {
        hide();  // nothing timed, or a table that has finished every position
        return;
      }
      box.hidden = false;
      if (elsewhere()) {
        label.textContent = box.getAttribute("data-table").replace("{round}", state.table_round);
        note.textContent = box.getAttribute("data-elsewhere").replace("{round}", state.round);
        note.hidden = false;
        time.hidden = true;
        over.hidden = true;
        box.setAttribute("data-state", "elsewhere");
        box.removeAttribute("data-left-seconds");
        box.classList.remove("over", "ending");
        return;
      }
      note.hidden = true;
      time.hidden = false;
      var text = state.state === "paused" ? box.getAttribute("data-paused") : box.getAttribute("data-running");
      if (state.round) {
        text = box.getAttribute("data-position") + " " + state.round + " · " + text;
      }
      label.textContent = text;
      time.textContent = format(ms);
      box.setAttribute("data-state", state.state);
      box.setAttribute("data-left-seconds", String(Math.max(0, Math.round(ms / 1000))));
      var done = state.state === "running" && ms <= 0;
      box.classList.toggle("over", done);
      box.classList.toggle("ending", state.state === "running" && ms > 0 && ms <= ENDING_MS);
      over.textContent = box.getAttribute(state.last ? "data-over-last" : "data-over");
      over.hidden = !done;
    }

    function poll() {
      var sent = Date.now();
      var started = window.performance ? performance.now() : sent;
      fetch(url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) return;
          var ended = window.performance ? performance.now() : Date.now();
          var trip = Math.max(0, ended - started);
          // The server's instant is about half a round trip before the answer arrived.
          samples.push([trip, data.now_ms + trip / 2 - Date.now()]);
          if (samples.length > SAMPLES) samples.shift();
          state = data;
          render();
        })
        .catch(function () { /* no network: count on from what is known */ })
        .then(next);
    }

    var timer = null;
    function next() {
      if (timer) window.clearTimeout(timer);
      if (state && state.over) return;  // the event no longer runs: no clock any more
      var idle = !state || state.state === "idle";
      timer = window.setTimeout(function () { poll(); }, idle ? IDLE_POLL_MS : POLL_MS);
    }

    poll();
    window.setInterval(render, 250);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) poll();
    });
  }

  function init() {
    var boxes = document.querySelectorAll(".round-clock[data-clock-url]");
    for (var i = 0; i < boxes.length; i++) start(boxes[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
