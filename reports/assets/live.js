/* cardlab watch: follows the server's state (server-sent events, or polling
   /state.json where EventSource is missing) and redraws the page. Every
   text from the ruleset goes in with textContent, never as markup. */
(function () {
  "use strict";
  var seq = -1;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    if (cls) {
      e.className = cls;
    }
    return e;
  }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function pts(x) { return (x >= 0 ? "+" : "") + (100 * x).toFixed(1); }
  function pow(x) { return (x >= 0 ? "+" : "") + Number(x).toFixed(1); }
  function clear(id) {
    var e = document.getElementById(id);
    while (e.firstChild) {
      e.removeChild(e.firstChild);
    }
    return e;
  }

  function bar(f) {
    var b = el("div", null, "bar");
    var span = 0.15;
    var lo = Math.max(-span, Math.min(span, f.delta));
    var left = 50 + Math.min(0, lo) / span * 50;
    var w = Math.abs(lo) / span * 50;
    var s = el("span");
    s.style.left = left + "%";
    s.style.width = w + "%";
    s.style.background = f.color || "#4e79a7";
    s.style.opacity = f.significant ? "1" : "0.45";
    b.appendChild(s);
    b.appendChild(el("span", null, "zero"));
    return b;
  }

  function render(st) {
    if (st.seq <= seq) {
      return;
    }
    seq = st.seq;
    document.documentElement.setAttribute("data-seq", String(st.seq));
    document.documentElement.setAttribute("data-status", st.status || "");
    var status = document.getElementById("live-status");
    status.className = "live-status " + (st.status || "");
    status.textContent = (st.time ? st.time + " · " : "") + (st.file ? st.file + " · " : "") + (st.message || st.status || "");
    var prog = document.getElementById("live-progress");
    prog.hidden = st.status !== "running";
    prog.value = st.progress || 0;
    var errs = clear("live-errors");
    (st.errors || []).forEach(function (e) { errs.appendChild(el("li", e)); });
    if (st.status !== "done") {
      return; // keep the last result on screen while a run goes on
    }
    document.getElementById("live-verdict").textContent = st.verdict || "";
    document.getElementById("live-bots").textContent = st.bots || "";
    // The headings in the game's words: its side, or "seat" where the rows
    // are seats (a mirror).
    if (st.rows) {
      document.getElementById("live-rows-head").textContent = st.rows.charAt(0).toUpperCase() + st.rows.slice(1);
    }
    if (st.side) {
      document.getElementById("live-side-head").textContent = st.side.charAt(0).toUpperCase() + st.side.slice(1);
    }
    var ch = clear("live-changes");
    (st.changes || []).forEach(function (c) {
      ch.appendChild(el("li", c.name + (c.id && c.id !== c.name ? " (" + c.id + ")" : "") + ": " + c.what));
    });
    var fb = document.querySelector("#live-factions tbody");
    while (fb.firstChild) {
      fb.removeChild(fb.firstChild);
    }
    (st.factions || []).forEach(function (f) {
      var tr = el("tr");
      var name = el("td", f.name, "l");
      tr.appendChild(name);
      tr.appendChild(el("td", pct(f.base)));
      tr.appendChild(el("td", pct(f.now)));
      tr.appendChild(el("td", pts(f.delta) + (f.significant ? " *" : ""), f.significant ? (f.delta > 0 ? "pos" : "neg") : ""));
      tr.appendChild(el("td", "[" + pts(f.ci95[0]) + ", " + pts(f.ci95[1]) + "]"));
      var td = el("td", null, "l");
      td.appendChild(bar(f));
      tr.appendChild(td);
      fb.appendChild(tr);
    });
    document.getElementById("live-cards-note").textContent = st.cards_note || "";
    document.getElementById("live-cards").hidden = !(st.cards || []).length;
    var cb = document.querySelector("#live-cards tbody");
    while (cb.firstChild) {
      cb.removeChild(cb.firstChild);
    }
    (st.cards || []).forEach(function (c) {
      var tr = el("tr");
      tr.appendChild(el("td", c.name + (c.edited ? " (edited)" : ""), "l"));
      tr.appendChild(el("td", c.faction, "l"));
      tr.appendChild(el("td", c.before === null || c.before === undefined ? "–" : pow(c.before)));
      tr.appendChild(el("td", pow(c.after)));
      tr.appendChild(el("td", pow(c.delta), c.moved ? (c.delta > 0 ? "pos" : "neg") : ""));
      tr.appendChild(el("td", "[" + pow(c.ci95[0]) + ", " + pow(c.ci95[1]) + "]"));
      cb.appendChild(tr);
    });
  }

  function poll() {
    var x = new XMLHttpRequest();
    x.open("GET", "state.json");
    x.onload = function () {
      if (x.status === 200) {
        render(JSON.parse(x.responseText));
      }
      setTimeout(poll, 1000);
    };
    x.onerror = function () { setTimeout(poll, 2000); };
    x.send();
  }

  if (window.EventSource) {
    var es = new EventSource("events");
    es.onmessage = function (ev) { render(JSON.parse(ev.data)); };
    es.onerror = function () {
      document.getElementById("live-status").textContent = "connection lost: is cardlab watch still running?";
    };
  } else {
    poll();
  }
})();
