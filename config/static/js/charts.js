/* duplitarot: the public pages' charts (issue 11), drawn by the vendored Chart.js
   (static/vendor/chartjs/chart.umd.min.js, loaded before this file; both deferred, and only
   by the pages that draw a chart).

   Each <canvas data-chart="ID"> draws the figures of <script id="ID" type="application/json">
   (Django's json_script, built by scoring/presentation.py):
     {type: "line" | "bar", labels: [...], datasets: [{key, label, data: [...]}],
      x_title, y_title, y_min, y_max, unit, integer, highlight, marks, mark_label}
   No figure is written in this file or inline in a page. The page keeps a caption and a data
   table for screen readers and for a browser without JavaScript. */
(function () {
  "use strict";

  // The printed size (an A4 page's width); the pages' print rules give the chart box the same.
  var PRINT_SIZE = { width: 640, height: 300 };

  function cssColour(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name);
    return (value && value.trim()) || fallback;
  }

  function lightened(hex, alpha) {
    var match = /^#([0-9a-f]{6})$/i.exec(hex);
    if (!match) return hex;
    var n = parseInt(match[1], 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
  }

  function datasets(spec, accent, muted) {
    return spec.datasets.map(function (source, index) {
      var dataset = { label: source.label, data: source.data };
      if (spec.type === "bar") {
        // The viewer's own result (if known) stands out; the others are a lighter shade.
        dataset.backgroundColor = source.data.map(function (_, i) {
          return i === spec.highlight ? accent : lightened(accent, 0.35);
        });
        dataset.borderColor = accent;
        dataset.borderWidth = source.data.map(function (_, i) {
          return i === spec.highlight ? 2 : 0;
        });
        dataset.maxBarThickness = 48;
      } else {
        var colour = index === 0 ? accent : muted;
        dataset.borderColor = colour;
        dataset.backgroundColor = colour;
        // Told apart without colour too: solid with dots, dashed with diamonds.
        dataset.borderDash = index === 0 ? [] : [6, 4];
        dataset.pointStyle = index === 0 ? "circle" : "rectRot";
        dataset.pointRadius = 4;
        dataset.spanGaps = true;
      }
      return dataset;
    });
  }

  function draw(canvas) {
    var source = document.getElementById(canvas.getAttribute("data-chart"));
    if (!source || typeof window.Chart === "undefined") return null;
    var spec = JSON.parse(source.textContent);
    var accent = cssColour("--accent", "#8a1538");
    var muted = cssColour("--muted", "#5b6470");
    var unit = spec.unit ? "\u202f" + spec.unit : "";
    var reduceMotion =
      window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var y = {
      beginAtZero: true,
      title: { display: Boolean(spec.y_title), text: spec.y_title },
      ticks: {},
    };
    if (spec.y_min !== undefined && spec.y_min !== null) y.min = spec.y_min;
    if (spec.y_max !== undefined && spec.y_max !== null) y.max = spec.y_max;
    if (spec.integer) y.ticks.precision = 0;
    return new window.Chart(canvas, {
      type: spec.type,
      data: { labels: spec.labels, datasets: datasets(spec, accent, muted) },
      options: {
        locale: document.documentElement.lang || undefined,
        responsive: true,
        maintainAspectRatio: false,
        animation: reduceMotion ? false : { duration: 300 },
        plugins: {
          legend: { display: spec.datasets.length > 1, position: "bottom" },
          tooltip: {
            callbacks: {
              label: function (context) {
                var text = context.dataset.label + " — " + context.formattedValue + unit;
                if (spec.marks && spec.marks[context.dataIndex] !== null) {
                  text += " · " + spec.mark_label + " " + spec.marks[context.dataIndex];
                }
                return text;
              },
            },
          },
        },
        scales: {
          x: {
            title: { display: Boolean(spec.x_title), text: spec.x_title },
            ticks: { autoSkip: true, maxRotation: 60 },
          },
          y: y,
        },
      },
    });
  }

  function drawAll() {
    var charts = [];
    var canvases = document.querySelectorAll("canvas[data-chart]");
    for (var i = 0; i < canvases.length; i++) {
      var chart = draw(canvases[i]);
      if (chart) {
        canvases[i].setAttribute("data-chart-drawn", "true");
        charts.push(chart);
      }
    }
    // Print the charts at a page's width, then give them back the window's.
    window.addEventListener("beforeprint", function () {
      charts.forEach(function (chart) {
        chart.resize(PRINT_SIZE.width, PRINT_SIZE.height);
      });
    });
    window.addEventListener("afterprint", function () {
      charts.forEach(function (chart) {
        chart.resize();
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
