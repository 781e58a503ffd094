/* cardlab report page: draws every chart whose ECharts option is embedded as
   JSON (a script element of type application/json with the id "ID-option")
   into the element with that ID. Options hold no code: where a chart needs a function, the
   option names a hook ("cardlab:…") defined here. Every name a hook shows in
   a tooltip is escaped with echarts.format.encodeHTML. */
(function () {
  "use strict";
  var enc = echarts.format.encodeHTML;

  function num(v, unit) {
    if (v === null || v === undefined || v === "" || isNaN(v)) {
      return "–";
    }
    v = Number(v);
    switch (unit) {
      case "%":
        return v.toFixed(1) + "%";
      case "pts":
        return (v >= 0 ? "+" : "") + v.toFixed(1) + " pts";
      case "power":
        return (v >= 0 ? "+" : "") + v.toFixed(1) + " power";
      case "games":
        return String(Math.round(v));
      default:
        return String(Math.round(v * 100) / 100);
    }
  }

  function errorbar(horizontal) {
    return function (params, api) {
      var c = api.value(0), lo = api.value(1), hi = api.value(2);
      var a = horizontal ? api.coord([lo, c]) : api.coord([c, lo]);
      var b = horizontal ? api.coord([hi, c]) : api.coord([c, hi]);
      var band = horizontal ? api.size([0, 1])[1] : api.size([1, 0])[0];
      var w = Math.max(4, Math.min(band * 0.3, 16)) / 2;
      var st = { stroke: "#222", lineWidth: 1.5 };
      function line(x1, y1, x2, y2) {
        return { type: "line", shape: { x1: x1, y1: y1, x2: x2, y2: y2 }, style: st };
      }
      var kids = [line(a[0], a[1], b[0], b[1])];
      if (horizontal) {
        kids.push(line(a[0], a[1] - w, a[0], a[1] + w), line(b[0], b[1] - w, b[0], b[1] + w));
      } else {
        kids.push(line(a[0] - w, a[1], a[0] + w, a[1]), line(b[0] - w, b[1], b[0] + w, b[1]));
      }
      return { type: "group", children: kids };
    };
  }

  // Tooltip and label formatters; meta is the option's "_cardlab" object.
  var formatters = {
    // a bar with its interval (axis trigger: the bar and the custom series)
    "cardlab:ci": function (meta) {
      return function (ps) {
        ps = [].concat(ps);
        var bar = null, ci = null;
        ps.forEach(function (p) {
          if (p.seriesType === "custom") {
            ci = p.value;
          } else if (!bar) {
            bar = p;
          }
        });
        if (!bar) {
          return "";
        }
        var s = "<b>" + enc(bar.name) + "</b>";
        if (meta.names && meta.names[bar.dataIndex]) {
          s += " · " + enc(meta.names[bar.dataIndex]);
        }
        s += "<br>" + bar.marker + num(bar.value, meta.unit);
        if (ci) {
          s += " (" + enc(meta.ci || "95% CI") + " " + num(ci[1], meta.unit) + " to " + num(ci[2], meta.unit) + ")";
        }
        return s;
      };
    },
    "cardlab:heatmap": function () {
      return function (p) {
        var v = p.value;
        return "<b>" + enc(p.name) + "</b><br>" + num(v[2], "%") + " (95% CI " + num(v[3], "%") + " to " +
          num(v[4], "%") + "), " + num(v[5], "games") + " games" +
          (v[6] ? "<br>outside the tolerance band, significant after Holm" : "");
      };
    },
    // the share, a star when significant, and below it ± the half-width
    "cardlab:heatlabel": function () {
      return function (p) {
        var v = p.value;
        return Number(v[2]).toFixed(1) + (v[6] ? "*" : "") + "\n±" + ((Number(v[4]) - Number(v[3])) / 2).toFixed(1);
      };
    },
    // a view's heat map (game.Grid): value [col, row, %, lo, hi, marked]
    "cardlab:grid": function (meta) {
      return function (p) {
        var v = p.value;
        return "<b>" + enc(p.name) + "</b><br>" + num(v[2], "%") +
          (v[5] ? " (" + enc(meta.mark || "") + ")" : " (95% CI " + num(v[3], "%") + " to " + num(v[4], "%") + ")");
      };
    },
    "cardlab:gridlabel": function () {
      return function (p) {
        var v = p.value, s = Number(v[2]).toFixed(1);
        return v[5] ? "{b|" + s + "}" : s + "\n±" + ((Number(v[4]) - Number(v[3])) / 2).toFixed(1);
      };
    },
    // a view's Points: value [x, y, lo, hi]; the interval only where it
    // is one (lo < hi)
    "cardlab:points": function (meta) {
      return function (p) {
        var v = p.value;
        return "<b>" + enc(p.name) + "</b> · " + enc(p.seriesName) + "<br>" + enc(meta.x || "x") + " " + num(v[0]) +
          " · " + enc(meta.y || "y") + " " + num(v[1]) +
          (Number(v[2]) < Number(v[3]) ? " (95% CI " + num(v[2]) + " to " + num(v[3]) + ")" : "");
      };
    },
    "cardlab:scatter": function (meta) {
      return function (p) {
        var power = meta.unit === "power";
        var y = power ? Number(p.value[1]).toFixed(1) + " power" : num(p.value[1], meta.unit) + " " + meta.unit;
        var x = power ? "power " + num(p.value[2]) : num(p.value[2]) + " " + meta.unit;
        return "<b>" + enc(p.name) + "</b> · " + enc(p.seriesName) + "<br>printed " + enc(x) + " · " +
          enc(meta.yLabel || "") + " " + enc(y);
      };
    },
    "cardlab:axis": function (meta) {
      return function (ps) {
        ps = [].concat(ps);
        if (!ps.length) {
          return "";
        }
        var s = "<b>" + enc(ps[0].axisValueLabel) + "</b>";
        ps.forEach(function (p) {
          s += "<br>" + p.marker + enc(p.seriesName) + ": " + num(p.value, meta.unit);
          if (meta.cis && meta.cis[p.seriesIndex]) {
            s += " " + enc(meta.cis[p.seriesIndex][p.dataIndex] || "");
          }
        });
        return s;
      };
    }
  };

  function hook(name, meta) {
    if (name === "cardlab:errorbar" || name === "cardlab:errorbar-h") {
      return errorbar(name === "cardlab:errorbar-h");
    }
    var f = formatters[name];
    if (!f) {
      throw new Error("cardlab report: unknown chart hook " + name);
    }
    return f(meta);
  }

  function isHook(v) {
    return typeof v === "string" && v.indexOf("cardlab:") === 0;
  }

  function resolve(opt, meta) {
    if (opt.tooltip && isHook(opt.tooltip.formatter)) {
      opt.tooltip.formatter = hook(opt.tooltip.formatter, meta);
    }
    (opt.series || []).forEach(function (s) {
      if (isHook(s.renderItem)) {
        var h = s.renderItem === "cardlab:errorbar-h";
        s.renderItem = hook(s.renderItem, meta);
        s.encode = h ? { y: 0, x: [1, 2] } : { x: 0, y: [1, 2] };
        s.silent = true;
      }
      if (s.label && isHook(s.label.formatter)) {
        s.label.formatter = hook(s.label.formatter, meta);
      }
      if (s.tooltip && isHook(s.tooltip.formatter)) {
        s.tooltip.formatter = hook(s.tooltip.formatter, meta);
      }
    });
  }

  var drawn = [];

  function draw(el) {
    var src = document.getElementById(el.id + "-option");
    if (!src) {
      throw new Error("cardlab report: no option for chart " + el.id);
    }
    var opt = JSON.parse(src.textContent);
    var meta = opt._cardlab || {};
    delete opt._cardlab;
    resolve(opt, meta);
    // On a narrow screen long category labels would squeeze the bars away.
    if (meta.narrowLabel && el.clientWidth < 600) {
      [].concat(opt.yAxis || []).forEach(function (a) {
        if (a.axisLabel) {
          a.axisLabel.width = meta.narrowLabel;
          if (meta.narrowWrap) {
            a.axisLabel.overflow = "break";
            a.axisLabel.lineHeight = 13;
          }
        }
      });
      if (meta.narrowHeight) {
        el.style.height = meta.narrowHeight + "px";
      }
    }
    // A heat map writes its figures only into cells wide enough to hold
    // them (eleven columns at 360 px ran into each other); the tooltip
    // still gives each.
    if (meta.cols && el.clientWidth / meta.cols < meta.labelMinCell) {
      [].concat(opt.series || []).forEach(function (s) {
        if (s.label) {
          s.label.show = false;
        }
      });
    }
    var chart = echarts.init(el, null, { renderer: "canvas" });
    chart.setOption(opt);
    drawn.push(chart);
  }

  var els = document.querySelectorAll(".chart[id]");
  for (var i = 0; i < els.length; i++) {
    try {
      draw(els[i]);
    } catch (e) {
      console.error(e);
      els[i].setAttribute("data-error", String(e && e.message));
    }
  }
  document.documentElement.setAttribute("data-charts", String(drawn.length));

  function resize() {
    drawn.forEach(function (c) {
      c.resize();
    });
  }
  window.addEventListener("resize", resize);
  window.addEventListener("beforeprint", resize);
  window.addEventListener("afterprint", resize);
})();
