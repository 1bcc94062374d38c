// schema-gen API reference: opens the fields a link points at, and searches
// the site's field paths and descriptions (window.SCHEMA_GEN_SEARCH, from
// search-index.js). No network: works from file:// as from a server.
(function () {
  "use strict";

  var root = document.body.getAttribute("data-root") || "";

  // Fields scroll to just below the sticky header, however tall it wraps.
  var header = document.querySelector("header.top");
  function measureHeader() {
    if (header) {
      document.documentElement.style.setProperty("--header-height", header.offsetHeight + "px");
    }
  }
  measureHeader();
  window.addEventListener("resize", measureHeader);

  // The element the URL's fragment names: ids are field paths, which links
  // percent-encode.
  function target() {
    var hash = window.location.hash.slice(1);
    if (!hash) {
      return null;
    }
    var el = document.getElementById(hash);
    if (!el) {
      try {
        el = document.getElementById(decodeURIComponent(hash));
      } catch (e) {
        el = null;
      }
    }
    return el;
  }

  // Opens every <details> around (and at) the target, then scrolls to it.
  function reveal() {
    var el = target();
    if (!el) {
      return;
    }
    for (var e = el; e; e = e.parentElement) {
      if (e.tagName === "DETAILS") {
        e.open = true;
      }
    }
    measureHeader();
    el.scrollIntoView({ block: "start" });
  }

  window.addEventListener("hashchange", reveal);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", reveal);
  } else {
    reveal();
  }

  var input = document.getElementById("search");
  var list = document.getElementById("search-results");
  var index = Array.isArray(window.SCHEMA_GEN_SEARCH) ? window.SCHEMA_GEN_SEARCH : [];
  var LIMIT = 50;
  var lowered = null;

  function prepare() {
    if (lowered) {
      return;
    }
    lowered = index.map(function (e) {
      return {
        path: String(e.p || "").toLowerCase(),
        rest: (String(e.k || "") + " " + String(e.d || "")).toLowerCase(),
      };
    });
  }

  function matchesAll(text, terms) {
    for (var i = 0; i < terms.length; i++) {
      if (text.indexOf(terms[i]) < 0) {
        return false;
      }
    }
    return true;
  }

  function item(entry) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = root + entry.u;
    a.textContent = entry.p;
    li.appendChild(a);
    var where = document.createElement("span");
    where.className = "where";
    where.textContent = " " + entry.k;
    li.appendChild(where);
    if (entry.d) {
      var d = document.createElement("span");
      d.className = "excerpt";
      d.textContent = entry.d.length > 160 ? entry.d.slice(0, 160) + "…" : entry.d;
      li.appendChild(d);
    }
    return li;
  }

  // Paths that match first, then descriptions that do.
  function search() {
    while (list.firstChild) {
      list.removeChild(list.firstChild);
    }
    var q = input.value.trim().toLowerCase();
    if (!q) {
      return;
    }
    prepare();
    var terms = q.split(/\s+/);
    var byPath = [];
    var byText = [];
    for (var i = 0; i < index.length && byPath.length < LIMIT; i++) {
      var l = lowered[i];
      if (matchesAll(l.path, terms)) {
        byPath.push(index[i]);
      } else if (byText.length < LIMIT && matchesAll(l.path + " " + l.rest, terms)) {
        byText.push(index[i]);
      }
    }
    var shown = byPath.concat(byText).slice(0, LIMIT);
    var fragment = document.createDocumentFragment();
    shown.forEach(function (e) {
      fragment.appendChild(item(e));
    });
    list.appendChild(fragment);
  }

  if (input && list) {
    input.addEventListener("input", search);
    // A result followed on this page: the list gives way to the field.
    list.addEventListener("click", function (ev) {
      if (ev.target && ev.target.closest && ev.target.closest("a")) {
        while (list.firstChild) {
          list.removeChild(list.firstChild);
        }
      }
    });
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        input.value = "";
        search();
      }
    });
    if (input.value) {
      search();
    }
  }
})();
