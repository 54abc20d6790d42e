/* The web edition's behaviour: units and their entries, witness switch, filters by reading type,
   heat map, synoptic view, tabs and permalinks. Plain script, no library, works from file://.
   The witness rule is the one of docs/edition-format.md: in each unit, the first reading whose
   data-wit names the witness, else the lem without @wit (data-implicit). */
(function () {
  "use strict";

  var HEAT_BINS = 60;
  var page = {};

  function tokens(value) {
    return (value || "").split(/\s+/).filter(Boolean).map(function (token) {
      return token.charAt(0) === "#" ? token.slice(1) : token;
    });
  }

  function readingsOf(unit) {
    return Array.prototype.filter.call(unit.children, function (child) {
      return child.classList.contains("rdg");
    });
  }

  function readingFor(unit, witness) {
    var readings = readingsOf(unit);
    if (!witness) {
      return readings.filter(function (r) { return r.classList.contains("base"); })[0] || null;
    }
    for (var i = 0; i < readings.length; i++) {
      if (tokens(readings[i].getAttribute("data-wit")).indexOf(witness) >= 0) { return readings[i]; }
    }
    return readings.filter(function (r) { return r.hasAttribute("data-implicit"); })[0] || null;
  }

  /* The text of a node as witness W has it ('' = the edition's lemmata). */
  function textOf(node, witness) {
    if (node.nodeType === Node.TEXT_NODE) { return node.data; }
    if (node.nodeType !== Node.ELEMENT_NODE) { return ""; }
    if (node.classList.contains("app")) {
      var reading = readingFor(node, witness);
      return reading ? textOf(reading, witness) : "";
    }
    var parts = [];
    for (var child = node.firstChild; child; child = child.nextSibling) { parts.push(textOf(child, witness)); }
    return parts.join("");
  }

  function witnessText(witness) { return textOf(page.text, witness); }

  function declaredWitnesses() {
    var options = Array.prototype.slice.call(page.select.options, 1);
    if (options.length) {
      return options.map(function (o) { return { id: o.value, siglum: o.textContent }; });
    }
    var seen = [];
    page.text.querySelectorAll(".rdg[data-wit]").forEach(function (reading) {
      tokens(reading.getAttribute("data-wit")).forEach(function (t) { if (seen.indexOf(t) < 0) { seen.push(t); } });
    });
    seen.forEach(function (id) { page.select.add(new Option(id, id)); });
    return seen.map(function (id) { return { id: id, siglum: id }; });
  }

  /* ------------------------------------------------------------------ right-to-left runs */

  var RTL_RUN = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]+(?:\s+[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]+)*/g;

  /* Wrap each run of right-to-left script inside left-to-right text (an untagged Arabic formula in an
     English text) in <bdi dir="rtl">: it reads right to left and cannot reorder its neighbours. All runs
     are found before any is wrapped, since wrapping hides them from their block's dir="auto".
     Text nodes are split, never changed, so every witness's text stays exactly the same. */
  /* The element's resolved direction (dir="auto" included), without computing any style. */
  function isRightToLeft(element) {
    try {
      return element.matches(":dir(rtl)");
    } catch (unsupported) {
      return !!element.closest("[dir=rtl]");
    }
  }

  function isolateRightToLeft(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var found = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      RTL_RUN.lastIndex = 0;
      if (RTL_RUN.test(node.data) && !isRightToLeft(node.parentElement)) { found.push(node); }
    }
    found.forEach(function (textNode) {
      var fragment = document.createDocumentFragment();
      var text = textNode.data;
      var last = 0;
      text.replace(RTL_RUN, function (run, at) {
        if (at > last) { fragment.appendChild(document.createTextNode(text.slice(last, at))); }
        var bdi = document.createElement("bdi");
        bdi.dir = "rtl";
        bdi.className = "rtl-run";
        bdi.textContent = run;
        fragment.appendChild(bdi);
        last = at + run.length;
        return run;
      });
      if (last < text.length) { fragment.appendChild(document.createTextNode(text.slice(last))); }
      textNode.parentNode.replaceChild(fragment, textNode);
    });
  }

  /* ------------------------------------------------------------------ witness switch */

  function showWitness(witness) {
    page.units.forEach(function (unit) {
      var chosen = readingFor(unit, witness);
      readingsOf(unit).forEach(function (r) { r.classList.toggle("shown", r === chosen); });
    });
    page.select.value = witness;
  }

  /* ------------------------------------------------------------------ units and entries */

  function entryOf(unit) { return document.getElementById("entry-" + unit.id); }

  function activate(unit, options) {
    if (page.active) {
      page.active.classList.remove("active");
      page.active.setAttribute("aria-expanded", "false");
    }
    page.active = unit;
    unit.classList.add("active");
    unit.setAttribute("aria-expanded", "true");
    var entry = entryOf(unit);
    page.panel.innerHTML = "";
    var heading = document.createElement("h2");
    heading.textContent = "Unit " + unit.getAttribute("data-n");
    var body = document.createElement("p");
    body.className = "entry";
    body.innerHTML = entry ? entry.innerHTML : "";
    var toList = document.createElement("a");
    toList.href = "#entry-" + unit.id;
    toList.className = "to-entry";
    toList.textContent = "Entry in the apparatus";
    page.panel.appendChild(heading);
    page.panel.appendChild(body);
    page.panel.appendChild(toList);
    if (options && options.focus) { unit.focus(); }
    if (options && options.scroll) { unit.scrollIntoView({ block: "center" }); }
    if (history.replaceState && location.hash !== "#" + unit.id) { history.replaceState(null, "", "#" + unit.id); }
  }

  function showNote(marker) {
    page.panel.innerHTML = "";
    var heading = document.createElement("h2");
    heading.textContent = "Note";
    var body = document.createElement("p");
    body.textContent = marker.title;
    page.panel.appendChild(heading);
    page.panel.appendChild(body);
  }

  function closePanel() {
    if (!page.active) { return; }
    page.active.classList.remove("active");
    page.active.setAttribute("aria-expanded", "false");
    page.active.focus();
    page.active = null;
    page.panel.innerHTML = '<p class="hint">Select a marked passage to see its readings.</p>';
  }

  function unitFromEvent(event) {
    var target = event.target;
    if (target.closest("a")) { return null; }
    var unit = target.closest(".app");
    return unit && !unit.classList.contains("filtered") ? unit : null;
  }

  /* ------------------------------------------------------------------ filters by reading type */

  function typeKey(type) { return type || "untyped"; }

  /* The edition's taxonomy of reading types: [type, description] in its order. */
  function vocabulary() {
    return Array.prototype.map.call(document.querySelectorAll(".filters .type-description"), function (span) {
      return [span.getAttribute("data-type"), span.textContent];
    });
  }

  /* The types the units use: those of the taxonomy in its order, then the others alphabetically. */
  function readingTypes() {
    var found = [];
    page.units.forEach(function (unit) {
      (unit.getAttribute("data-types") || "").split(/\s+/).filter(Boolean).forEach(function (t) {
        if (found.indexOf(t) < 0) { found.push(t); }
      });
    });
    var declared = vocabulary().map(function (entry) { return entry[0]; });
    var rank = function (type) { var at = declared.indexOf(type); return at < 0 ? declared.length : at; };
    return found.sort(function (a, b) { return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0); });
  }

  function buildFilters() {
    var fieldset = document.querySelector(".filters");
    page.hiddenTypes = {};
    var types = readingTypes();
    var descriptions = {};
    vocabulary().forEach(function (entry) { descriptions[entry[0]] = entry[1]; });
    types.forEach(function (type) {
      var label = document.createElement("label");
      if (descriptions[type]) { label.title = descriptions[type]; }
      var box = document.createElement("input");
      box.type = "checkbox";
      box.checked = true;
      box.value = type;
      box.addEventListener("change", function () { page.hiddenTypes[type] = !box.checked; applyFilters(); });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + type));
      fieldset.appendChild(label);
    });
    var nonSubstantive = (document.body.getAttribute("data-non-substantive") || "").split(/\s+/);
    if (types.some(function (t) { return nonSubstantive.indexOf(t) >= 0; })) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "substantive-only";
      button.textContent = "Substantive only";
      button.addEventListener("click", function () {
        fieldset.querySelectorAll("input").forEach(function (box) {
          box.checked = nonSubstantive.indexOf(box.value) < 0;
          page.hiddenTypes[box.value] = !box.checked;
        });
        applyFilters();
      });
      fieldset.appendChild(button);
    }
  }

  function applyFilters() {
    document.querySelectorAll(".entry .reading:not(.lemma)").forEach(function (reading) {
      reading.hidden = !!page.hiddenTypes[typeKey(reading.getAttribute("data-type"))];
    });
    page.units.forEach(function (unit) {
      var types = (unit.getAttribute("data-types") || "").split(/\s+/).filter(Boolean);
      var filtered = types.length > 0 && types.every(function (t) { return page.hiddenTypes[t]; });
      unit.classList.toggle("filtered", filtered);
      unit.tabIndex = filtered ? -1 : 0;
      var entry = entryOf(unit);
      if (entry) { entry.hidden = filtered; }
    });
    drawHeatmap();
  }

  /* ------------------------------------------------------------------ heat map */

  function unitOffsets() {
    var offsets = [];
    var length = 0;
    (function walk(node) {
      if (node.nodeType === Node.TEXT_NODE) { length += node.data.length; return; }
      if (node.nodeType !== Node.ELEMENT_NODE) { return; }
      if (node.classList.contains("app")) {
        offsets.push({ unit: node, at: length });
        var reading = readingFor(node, "");
        if (reading) { walk(reading); }
        return;
      }
      for (var child = node.firstChild; child; child = child.nextSibling) { walk(child); }
    })(page.text);
    return { offsets: offsets, length: Math.max(length, 1) };
  }

  function drawHeatmap() {
    var map = page.heatmap;
    map.innerHTML = "";
    if (!page.units.length) { return; }
    var bins = Math.min(HEAT_BINS, page.units.length);
    var counts = [];
    var firsts = [];
    for (var i = 0; i < bins; i++) { counts.push(0); firsts.push(null); }
    page.offsets.offsets.forEach(function (place) {
      if (place.unit.classList.contains("filtered")) { return; }
      var bin = Math.min(bins - 1, Math.floor(place.at / page.offsets.length * bins));
      counts[bin] += Math.max(1, readingsOf(place.unit).length - 1);
      if (!firsts[bin]) { firsts[bin] = place.unit; }
    });
    var most = Math.max.apply(null, counts.concat([1]));
    counts.forEach(function (count, bin) {
      var cell = document.createElement("button");
      cell.type = "button";
      cell.className = "heat";
      cell.setAttribute("data-level", String(Math.ceil(count / most * 5)));
      cell.setAttribute("aria-label", "Part " + (bin + 1) + " of " + bins + ": " + count + " variant readings");
      cell.title = count + " variant readings";
      cell.tabIndex = bin === 0 ? 0 : -1;
      if (firsts[bin]) {
        cell.addEventListener("click", function () { activate(firsts[bin], { focus: true, scroll: true }); });
      } else {
        cell.setAttribute("aria-disabled", "true");
      }
      map.appendChild(cell);
    });
  }

  /* Arrow keys, Home and End move between the cells of the heat map (one tab stop for the whole strip). */
  function moveAlongHeatmap(event) {
    var cells = Array.prototype.slice.call(page.heatmap.children);
    var here = cells.indexOf(document.activeElement);
    var next = { ArrowRight: here + 1, ArrowLeft: here - 1, Home: 0, End: cells.length - 1 }[event.key];
    if (here < 0 || next === undefined) { return; }
    event.preventDefault();
    var target = cells[Math.max(0, Math.min(cells.length - 1, next))];
    cells[here].tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
  }

  /* ------------------------------------------------------------------ synoptic view */

  function segments() {
    var rows = [];
    var shared = [];
    function flush() {
      if (shared.length) { rows.push({ text: shared }); shared = []; }
    }
    (function walk(node) {
      if (node.nodeType === Node.TEXT_NODE) { shared.push(node.data); return; }
      if (node.nodeType !== Node.ELEMENT_NODE) { return; }
      if (node.classList.contains("app")) { flush(); rows.push({ unit: node }); return; }
      for (var child = node.firstChild; child; child = child.nextSibling) { walk(child); }
    })(page.text);
    flush();
    return rows;
  }

  function buildSynopticChoices() {
    var fieldset = document.querySelector(".synoptic-witnesses");
    var columns = parseInt(document.body.getAttribute("data-synoptic-columns"), 10) || 6;
    page.witnesses.forEach(function (witness, index) {
      var label = document.createElement("label");
      var box = document.createElement("input");
      box.type = "checkbox";
      box.value = witness.id;
      box.checked = index < columns;
      box.addEventListener("change", drawSynoptic);
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + witness.siglum));
      fieldset.appendChild(label);
    });
  }

  function drawSynoptic() {
    var chosen = page.witnesses.filter(function (w) {
      var box = document.querySelector('.synoptic-witnesses input[value="' + CSS.escape(w.id) + '"]');
      return box && box.checked;
    });
    var table = document.createElement("table");
    var head = table.createTHead().insertRow();
    var corner = document.createElement("th");
    corner.textContent = "Unit";
    head.appendChild(corner);
    chosen.forEach(function (w) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = w.siglum;
      head.appendChild(th);
    });
    var body = table.createTBody();
    segments().forEach(function (row) {
      var tr = body.insertRow();
      var label = document.createElement("th");
      label.scope = "row";
      tr.appendChild(label);
      if (row.text) {
        tr.className = "shared";
        var cell = tr.insertCell();
        cell.colSpan = Math.max(chosen.length, 1);
        cell.textContent = row.text.join("");
        return;
      }
      var link = document.createElement("a");
      link.href = "#" + row.unit.id;
      link.textContent = row.unit.getAttribute("data-n");
      label.appendChild(link);
      var base = textOf(readingFor(row.unit, "") || document.createElement("span"), "");
      chosen.forEach(function (w) {
        var reading = readingFor(row.unit, w.id);
        var cell = tr.insertCell();
        cell.textContent = reading ? textOf(reading, w.id) : "";
        cell.className = (cell.textContent === base ? "agrees" : "differs") + (cell.textContent ? "" : " omitted");
      });
    });
    var holder = document.getElementById("synoptic");
    holder.innerHTML = "";
    holder.appendChild(table);
    isolateRightToLeft(table);
  }

  /* ------------------------------------------------------------------ tabs and permalinks */

  function selectTab(tab, focus) {
    page.tabs.forEach(function (other) {
      var selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    });
    if (focus) { tab.focus(); }
    if (tab.id === "tab-synoptic") { drawSynoptic(); }
  }

  function followHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var target = document.getElementById(id);
    if (!target) { return; }
    if (target.classList.contains("app")) {
      selectTab(document.getElementById("tab-text"), false);
      if (target !== page.active) { activate(target, { focus: true, scroll: true }); }
    }
  }

  /* ------------------------------------------------------------------ wiring */

  function wire() {
    page.text.addEventListener("click", function (event) {
      if (event.target.classList.contains("note-ref")) { showNote(event.target); return; }
      var unit = unitFromEvent(event);
      if (unit) { event.stopPropagation(); activate(unit, {}); }
    });
    page.text.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" && event.key !== " ") { return; }
      if (event.target.classList.contains("note-ref")) { event.preventDefault(); showNote(event.target); return; }
      var unit = event.target.classList && event.target.classList.contains("app") ? event.target : null;
      if (unit && !unit.classList.contains("filtered")) { event.preventDefault(); activate(unit, {}); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { closePanel(); }
    });
    page.select.addEventListener("change", function () { showWitness(page.select.value); });
    page.tabs.forEach(function (tab, index) {
      tab.addEventListener("click", function () { selectTab(tab, false); });
      tab.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (step) { selectTab(page.tabs[(index + step + page.tabs.length) % page.tabs.length], true); }
      });
    });
    page.heatmap.addEventListener("keydown", moveAlongHeatmap);
    window.addEventListener("hashchange", followHash);
  }

  /* What only works with the script appears with it: controls, tabs, and units and notes as buttons. */
  function enhance() {
    page.units.forEach(function (unit) {
      unit.tabIndex = 0;
      unit.setAttribute("role", "button");
      unit.setAttribute("aria-expanded", "false");
      unit.setAttribute("aria-controls", "entry-panel");
    });
    page.text.querySelectorAll(".note-ref").forEach(function (marker) {
      marker.tabIndex = 0;
      marker.setAttribute("role", "button");
      marker.setAttribute("aria-label", "Note");
    });
    document.querySelector(".controls").hidden = false;
    page.panel.hidden = false;
    document.querySelector(".tabs").hidden = false;
    selectTab(page.tabs[0], false);
  }

  function start() {
    page.text = document.getElementById("reading-text");
    page.panel = document.getElementById("entry-panel");
    page.select = document.getElementById("witness-select");
    page.heatmap = document.getElementById("heatmap");
    page.tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));
    page.units = Array.prototype.slice.call(page.text.querySelectorAll(".app"));
    enhance();
    isolateRightToLeft(page.text);
    page.witnesses = declaredWitnesses();
    page.offsets = unitOffsets();
    buildFilters();
    buildSynopticChoices();
    wire();
    drawHeatmap();
    followHash();
    document.documentElement.classList.add("ready");
    performance.mark("tei-edition-ready");
  }

  window.teiEdition = { witnessText: witnessText, showWitness: showWitness, activate: activate };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
