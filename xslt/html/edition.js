/* The web edition's behaviour: units and their entries (beside the text, or a bottom sheet on a phone),
   witness switch, marks, search, filters by reading type, heat map, synoptic view, tabs and permalinks.
   Plain script, no library, works from file://.
   Which reading a witness takes is the apparatus reader's verdict (tei/render/entries.py): each reading's
   data-wit lists the witnesses that read it (groups expanded, hands, the negative apparatus resolved) and a
   unit's data-lacunose those lacunose there. A page made from a plain edition file (xsltproc), without
   them, reads @wit itself: the first reading naming the witness, else the lem without @wit (data-implicit). */
(function () {
  "use strict";

  var HEAT_BINS = 60;
  var HEAT_CELL_MIN = 24;  // px: a cell is at least this wide, a target a finger can hit
  var SIGLA_SHOWN = 12;  // an entry shows this many sigla of a reading, the others behind a button
  var PHONE = "(max-width: 50rem)";
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
    if (isLacunose(unit, witness)) { return null; }
    for (var i = 0; i < readings.length; i++) {
      if (tokens(readings[i].getAttribute("data-wit")).indexOf(witness) >= 0) { return readings[i]; }
    }
    if (unit.hasAttribute("data-lacunose")) { return null; }  // read by the reader: no reading is its
    return readings.filter(function (r) { return r.hasAttribute("data-implicit"); })[0] || null;
  }

  function isLacunose(unit, witness) {
    return !!witness && tokens(unit.getAttribute("data-lacunose")).indexOf(witness) >= 0;
  }

  var LACUNA = "[\u2026]";  // as `tei witness` marks a lacuna
  // The alternative of a choice the page does not draw (edition.css): reg, corr, expan beside orig, sic, abbr.
  var DRAWN_SIGNS = ".tei-supplied, .tei-pb, .note-ref";
  var ALTERNATIVE = ".has-alternative > .tei-reg, .has-alternative > .tei-corr, .has-alternative > .tei-expan, " +
    ".has-collated > :not(:first-child)";

  /* The text of a node as witness W has it ('' = the edition's lemmata). */
  function textOf(node, witness) {
    if (node.nodeType === Node.TEXT_NODE) { return node.data; }
    if (node.nodeType !== Node.ELEMENT_NODE) { return ""; }
    if (node.classList.contains("app")) {
      if (isLacunose(node, witness)) { return LACUNA; }
      var reading = readingFor(node, witness);
      return reading ? textOf(reading, witness) : "";
    }
    var parts = [];
    for (var child = node.firstChild; child; child = child.nextSibling) { parts.push(textOf(child, witness)); }
    return parts.join("");
  }

  function witnessText(witness) { return textOf(page.text, witness); }

  /* The witnesses of the switch: those of listWit, then the sigla the apparatus cites without declaring
     them (hands, groups, correctors such as 01*), in an option group of their own. */
  function declaredWitnesses() {
    var options = Array.prototype.filter.call(page.select.options, function (o, i) {
      return i > 0 && !o.hasAttribute("data-members");  // a group is no witness of its own
    });
    var known = options.map(function (o) { return o.value; });
    var found = options.map(function (o) { return { id: o.value, siglum: o.textContent }; });
    var undeclared = [];
    page.text.querySelectorAll(".rdg[data-wit]").forEach(function (reading) {
      tokens(reading.getAttribute("data-wit")).forEach(function (t) {
        if (known.indexOf(t) < 0) { known.push(t); undeclared.push(t); }
      });
    });
    if (undeclared.length) {
      var holder = page.select;
      if (options.length) {
        holder = document.createElement("optgroup");
        holder.label = "cited, not in the list of witnesses";
        page.select.appendChild(holder);
      }
      undeclared.forEach(function (id) { holder.appendChild(new Option(id, id)); });
    }
    var groups = page.select.querySelector("optgroup.groups");
    if (groups) { page.select.appendChild(groups); }  // groups last, after the sigla cited undeclared
    return found.concat(undeclared.map(function (id) { return { id: id, siglum: id }; }));
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
    var group = groupOption(witness);
    var members = group ? tokens(group.getAttribute("data-members")) : null;
    var divided = 0;
    page.units.forEach(function (unit) {
      var chosen, lacunose, split = false;
      if (members) {
        var found = groupReading(unit, members);
        chosen = found.reading; lacunose = found.lacunose; split = found.divided;
      } else {
        chosen = readingFor(unit, witness); lacunose = isLacunose(unit, witness);
      }
      readingsOf(unit).forEach(function (r) { r.classList.toggle("shown", r === chosen); });
      unit.classList.toggle("lacunose", lacunose);
      unit.classList.toggle("divided", split);
      if (split) { divided++; }
      nameUnit(unit, chosen);
    });
    if (page.lacunaElements) { showLacunae(members ? "" : witness); }
    page.select.value = witness;
    page.witnessStatus.textContent = group
      ? group.textContent + ": " + (divided ? divided + (divided === 1 ? " unit" : " units")
        + " where the members divide (wavy underline; the edition's reading shown)" : "the members agree in every unit")
      : "";
  }

  function groupOption(value) {
    return value ? Array.prototype.filter.call(page.select.querySelectorAll("option[data-members]"), function (o) {
      return o.value === value;
    })[0] || null : null;
  }

  /* A group's text: in each unit the reading all its members take (the reader's verdicts), lacunose where
     they all are; where they divide, the edition's reading, and the unit marked as divided. */
  function groupReading(unit, members) {
    var taken = members.map(function (m) { return isLacunose(unit, m) ? "lacuna" : readingFor(unit, m); });
    var agree = taken.every(function (t) { return t === taken[0]; });
    if (agree) { return { reading: taken[0] === "lacuna" ? null : taken[0], lacunose: taken[0] === "lacuna", divided: false }; }
    return { reading: readingFor(unit, ""), lacunose: false, divided: true };
  }

  /* Lacunae opened and closed by elements: the text a witness lacks is hidden (its text nodes wrapped in a
     span once, never changed), the marker […] drawn where the lacuna opens, and a lacunose unit inside the
     stretch draws none: the text on screen is the reader's. */
  function showLacunae(witness) {
    page.text.querySelectorAll(".absent, .lacuna-opens, .lacuna-quiet").forEach(function (element) {
      element.classList.remove("absent", "lacuna-opens", "lacuna-quiet");
    });
    if (!witness) { return; }
    var seen = { hidden: [], opens: [], quiet: [], signs: [] };
    displayText(page.text, witness, seen);
    seen.hidden.forEach(function (text) {
      var holder = text.parentNode;
      if (!holder.classList.contains("lacking")) {
        holder = document.createElement("span");
        holder.className = "lacking";
        text.parentNode.replaceChild(holder, text);
        holder.appendChild(text);
      }
      holder.classList.add("absent");
    });
    seen.opens.forEach(function (element) {  // a unit draws it after the reading that opens the lacuna
      if (element.classList.contains("app")) { element = readingFor(element, witness); }
      if (element) { element.classList.add("lacuna-opens"); }
    });
    seen.quiet.forEach(function (element) { element.classList.add("lacuna-quiet"); });
    seen.signs.forEach(function (element) { element.classList.add("absent"); });
  }

  /* The control of a unit: the unit itself, or, for a unit holding other units (which cannot be a button
     around buttons), the small handle at its start. */
  function controlOf(unit) { return unit.handle || unit; }

  /* A unit with nothing to show here (an omission) still needs a name for a screen reader. */
  function nameUnit(unit, shown) {
    var control = controlOf(unit);
    if (control !== unit) { return; }
    if (shown && shown.textContent.trim()) { unit.removeAttribute("aria-label"); }
    else { unit.setAttribute("aria-label", "Unit " + unit.getAttribute("data-n") + ", empty in this text"); }
  }

  /* ------------------------------------------------------------------ units and entries */

  function entryOf(unit) { return document.getElementById("entry-" + unit.id); }

  function onPhone() { return window.matchMedia(PHONE).matches; }

  /* Fill the panel: a heading with a close button, then the content. On a phone the panel is a bottom sheet
     that opens over the page, and the page keeps the active passage above it. */
  function fillPanel(title, content) {
    page.panel.innerHTML = "";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "panel-close";
    close.textContent = "Close";
    close.setAttribute("aria-label", "Close the entry");
    close.addEventListener("click", function () { closePanel(); });
    var heading = document.createElement("h2");
    heading.textContent = title;
    page.panel.appendChild(close);
    page.panel.appendChild(heading);
    content.forEach(function (node) { page.panel.appendChild(node); });
    page.panel.classList.add("open");
    document.documentElement.classList.toggle("sheet-open", onPhone());
  }

  /* After a tap the passage and its entry are both in sight: on a phone the passage above the sheet; on a
     wide screen the panel, which sticks to the top of the text's column but ends with it. */
  function keepInSight(element) {
    if (!element) { return; }
    var panel = page.panel.getBoundingClientRect();
    var box = element.getClientRects()[0] || element.getBoundingClientRect();
    if (onPhone()) {
      if (box.top < 0 || box.bottom > panel.top) {
        window.scrollBy({ top: box.top - Math.max(16, (panel.top - box.height) / 2), behavior: "instant" });
      }
      return;
    }
    var shift = 0;
    if (panel.top < 0) { shift = panel.top - 16; }
    else if (panel.bottom > window.innerHeight) { shift = Math.min(panel.bottom - window.innerHeight + 16, box.top - 16); }
    if (shift) { window.scrollBy({ top: shift, behavior: "instant" }); }
  }

  function activate(unit, options) {
    if (page.active) {
      page.active.classList.remove("active");
      controlOf(page.active).setAttribute("aria-expanded", "false");
    }
    page.active = unit;
    unit.classList.add("active");
    controlOf(unit).setAttribute("aria-expanded", "true");
    var entry = entryOf(unit);
    var body = document.createElement("p");
    body.className = "entry";
    if (entry) {
      body.innerHTML = entry.innerHTML;
      if (entry.hasAttribute("dir")) { body.dir = entry.getAttribute("dir"); }
      body.querySelectorAll(".unit-ref").forEach(function (ref) { ref.remove(); });
    }
    var toList = document.createElement("a");
    toList.href = "#entry-" + unit.id;
    toList.className = "to-entry";
    toList.dir = "ltr";
    toList.textContent = "Entry in the apparatus";
    fillPanel("Unit " + unit.getAttribute("data-n"), [body, toList].concat(citations(unit)));
    showLemmaSpan(unit);
    if (options && options.focus) { controlOf(unit).focus({ preventScroll: true }); }
    if (options && options.scroll) { unit.scrollIntoView({ block: "center" }); }
    keepInSight(unit);
    if (history.replaceState && location.hash !== "#" + unit.id) { history.replaceState(null, "", "#" + unit.id); }
  }

  /* The citations of a unit and of the passage around it, each with a button that copies it:
     "Badr, A 12; app-42ae24c2" (the short title, the base witness's siglum and the unit's number; its id) and
     "Badr, badr-text" (the passage's xml:id, or the n of it and the passages around it: its anchor
     passage-ID, and its identifier in the static DTS responses). The XSLT writes the title and the siglum on
     the body (data-cite-title, data-cite-base) and each passage's identifier (data-cite). */
  function citations(unit) {
    var title = document.body.getAttribute("data-cite-title") || document.title;
    var base = document.body.getAttribute("data-cite-base");
    var found = [["Cite this unit", title + ", " + (base ? base + " " : "") + unit.getAttribute("data-n") + "; " + unit.id]];
    var passage = unit.parentElement && unit.parentElement.closest("[data-cite]");
    if (passage) { found.push(["Cite this passage", title + ", " + passage.getAttribute("data-cite")]); }
    return found.map(function (pair) {
      var line = document.createElement("p");
      line.className = "citation";
      line.dir = "ltr";
      var text = document.createElement("span");
      text.className = "citation-text";
      text.textContent = pair[1];
      var copy = document.createElement("button");
      copy.type = "button";
      copy.className = "copy-citation";
      copy.textContent = "Copy";
      copy.setAttribute("aria-label", pair[0] + ": copy " + pair[1]);
      copy.addEventListener("click", function () { copyText(pair[1], copy); });
      line.append(pair[0] + ": ", text, " ", copy);
      return line;
    });
  }

  function copyText(text, button) {
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { copyBySelection(text) && done(); });
    } else if (copyBySelection(text)) { done(); }
  }

  function copyBySelection(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.appendChild(field);
    field.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    field.remove();
    return copied;
  }

  /* An anchored unit (double end-point) has no text of its own: its lemma is the passage it points to,
     lit up while the unit is active. From an anchor to the unit, from the unit to an anchor, between two
     anchors; a word or segment pointed to alone is its own lemma. */
  function showLemmaSpan(unit) {
    if (!window.CSS || !CSS.highlights || typeof Highlight === "undefined") { return; }
    var lemma = new Highlight();
    var target = function (name) {
      var id = unit.getAttribute(name);
      return id ? page.text.querySelector('[data-xml-id="' + CSS.escape(id) + '"]') : null;
    };
    var from = target("data-from");
    var to = target("data-to");
    var isPoint = function (e) { return e && !e.textContent.trim(); };
    var range = document.createRange();
    if (isPoint(from) || isPoint(to)) {
      if (from) { range.setStartAfter(from); } else { range.setStartAfter(unit); }
      if (to && from) { range.setEndBefore(to); } else if (to) { range.setEndBefore(to); } else { range.setEndBefore(unit); }
      if (!range.collapsed && range.toString().length < 2000) { lemma.add(range); }
    } else if (from && !to) {
      range.selectNodeContents(from);
      lemma.add(range);
    }
    CSS.highlights.set("lemma", lemma);
  }

  function showNote(marker) {
    var body = document.createElement("p");
    body.dir = "auto";
    body.textContent = marker.title;
    fillPanel("Note", [body]);
    keepInSight(marker);
  }

  function closePanel() {
    var wasOpen = page.panel.classList.contains("open");
    page.panel.classList.remove("open");
    document.documentElement.classList.remove("sheet-open");
    if (!page.active) {
      if (wasOpen) { page.panel.innerHTML = '<p class="hint">Select a marked passage to see its readings.</p>'; }
      return;
    }
    page.active.classList.remove("active");
    controlOf(page.active).setAttribute("aria-expanded", "false");
    controlOf(page.active).focus({ preventScroll: true });
    page.active = null;
    if (window.CSS && CSS.highlights) { CSS.highlights.delete("lemma"); }
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
      controlOf(unit).tabIndex = filtered ? -1 : 0;
      var entry = entryOf(unit);
      if (entry) { entry.hidden = filtered; }
    });
    document.querySelectorAll(".entries .entry:not([hidden])").forEach(tidySeparators);
    if (page.active && page.active.classList.contains("filtered")) { closePanel(); }
    else if (page.active) { activate(page.active, {}); }
    drawHeatmap();
  }

  /* A separator stays only between two shown readings: hiding a reading never leaves "; ;" or "] ;". */
  function tidySeparators(entry) {
    var shownBefore = false;
    var pending = null;
    Array.prototype.forEach.call(entry.children, function (child) {
      if (child.classList.contains("sep")) {
        child.hidden = true;
        if (shownBefore && !pending) { pending = child; }
      } else if (child.classList.contains("reading") && !child.classList.contains("lemma")) {
        if (!child.hidden) {
          if (pending) { pending.hidden = false; }
          pending = null;
          shownBefore = true;
        }
      }
    });
  }

  /* ------------------------------------------------------------------ long lists of sigla */

  /* A reading cited by many witnesses shows its first sigla and a button for the others. */
  function shortenSigla() {
    document.querySelectorAll(".entries .sigla").forEach(function (sigla) {
      var all = sigla.querySelectorAll(".siglum");
      if (all.length <= SIGLA_SHOWN + 2) { return; }
      var rest = document.createElement("span");
      rest.className = "sigla-rest";
      rest.hidden = true;
      var node = all[SIGLA_SHOWN - 1].nextSibling;
      while (node) { var next = node.nextSibling; rest.appendChild(node); node = next; }
      var more = document.createElement("button");
      more.type = "button";
      more.className = "sigla-more";
      more.setAttribute("aria-expanded", "false");
      more.textContent = "+" + (all.length - SIGLA_SHOWN) + " more";
      sigla.appendChild(more);
      sigla.appendChild(rest);
    });
  }

  function toggleSigla(button) {
    var rest = button.nextElementSibling;
    var open = rest.hidden;
    rest.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "fewer" : "+" + rest.querySelectorAll(".siglum").length + " more";
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
    var room = Math.floor((map.clientWidth || page.text.clientWidth || 600) / HEAT_CELL_MIN);
    var bins = Math.max(1, Math.min(HEAT_BINS, page.units.length, room));
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
    page.heatBins = bins;
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

  /* The text of a node for a cell of the synoptic table: the spaces TEI implies between <w> elements and
     between blocks count, and a run of whitespace is one space (TEI's whitespace rule; in a cell, even
     preserved line breaks are one space). */
  function displayText(node, witness, seen) {
    var parts = [];
    var marked = false;  // the last thing drawn is a lacuna marker
    /* A lacuna opened by an element (lacunaStart, witEnd): the reader's verdict, data-lacking on each marker
       and unit, says who is inside one after it; the witness lacks the text until the next says otherwise. */
    var lacking = node === page.text && !!witness && tokens(node.getAttribute("data-lacking")).indexOf(witness) >= 0;
    function lacuna(at, quiet) {
      if (!marked) { parts.push(LACUNA); if (seen && !quiet) { seen.opens.push(at); } }
      else if (seen && quiet) { seen.quiet.push(at); }
      marked = true;
    }
    function follow(element) {
      if (!witness || !element.hasAttribute("data-lacking")) { return; }
      var was = lacking;
      lacking = tokens(element.getAttribute("data-lacking")).indexOf(witness) >= 0;
      if (lacking && !was) { lacuna(element); }
    }
    var root = node;
    if (lacking) { lacuna(node); }
    (function walk(node) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (lacking) { if (seen && /\S/.test(node.data)) { seen.hidden.push(node); } return; }
        parts.push(node.data.replace(/\s+/g, " "));
        if (/\S/.test(node.data)) { marked = false; }
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) { return; }
      if (node.classList.contains("implied-space")) { if (!lacking) { parts.push(" "); } return; }
      if (node.classList.contains("tei-gap")) { lacuna(node, true); return; }  // its marker is drawn by CSS
      if (node.classList.contains("app")) {
        if (isLacunose(node, witness)) {  // one marker for a stretch of lacunose units, as the reader marks it
          lacuna(node, true);
        } else {
          var reading = readingFor(node, witness);
          if (reading) { walk(reading); }
        }
        follow(node);
        return;
      }
      if (node !== root && node.hasAttribute("data-lacking")) { follow(node); return; }
      if (node.matches(ALTERNATIVE)) { return; }  // hidden by CSS: the witness reads its own form
      var block = node.tagName === "DIV";
      var before = lacking;
      if (block && !lacking) { parts.push(" "); }
      for (var child = node.firstChild; child; child = child.nextSibling) { walk(child); }
      if (block && !lacking) { parts.push(" "); }
      // A sign the CSS draws (brackets of supplied text, a page break, a note) inside a lacuna goes with it.
      if (seen && before && lacking && node.matches(DRAWN_SIGNS)) { seen.signs.push(node); }
    })(node);
    return parts.join("").replace(/ {2,}/g, " ");
  }

  function segments() {
    var rows = [];
    var shared = [];
    /* Shared text is one row, its whitespace collapsed; whitespace alone makes no row (no blank lines): it
       becomes the trailing space of the unit before it. */
    function flush() {
      var text = shared.join("").replace(/\s+/g, " ");
      shared = [];
      if (text.trim()) { rows.push({ text: text }); }
      else if (text && rows.length && rows[rows.length - 1].unit) { rows[rows.length - 1].after = " "; }
    }
    (function walk(node) {
      if (node.nodeType === Node.TEXT_NODE) { shared.push(node.data); return; }
      if (node.nodeType !== Node.ELEMENT_NODE) { return; }
      if (node.classList.contains("implied-space") || node.tagName === "DIV") { shared.push(" "); }
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
        cell.textContent = row.text;
        return;
      }
      var link = document.createElement("a");
      link.href = "#" + row.unit.id;
      link.textContent = row.unit.getAttribute("data-n");
      label.appendChild(link);
      var baseReading = readingFor(row.unit, "");
      var base = baseReading ? displayText(baseReading, "").trim() : "";
      chosen.forEach(function (w) {
        var reading = readingFor(row.unit, w.id);
        var cell = tr.insertCell();
        var text = reading ? displayText(reading, w.id) : "";
        cell.textContent = (text + (row.after || "")).replace(/ {2,}/g, " ");
        cell.className = (text.trim() === base ? "agrees" : "differs") + (text.trim() ? "" : " omitted");
      });
    });
    var holder = document.getElementById("synoptic");
    holder.innerHTML = "";
    holder.appendChild(table);
    isolateRightToLeft(table);
    document.querySelector(".synoptic-cue").hidden = holder.scrollWidth <= holder.clientWidth + 1;
  }

  /* ------------------------------------------------------------------ marks */

  function setMarks(kind) {
    ["line", "number", "none"].forEach(function (k) { document.body.classList.toggle("marks-" + k, k === kind); });
  }

  /* A unit whose readings are all of non-substantive types gets the lighter mark. */
  function weighUnits() {
    var nonSubstantive = (document.body.getAttribute("data-non-substantive") || "").split(/\s+/).filter(Boolean);
    page.units.forEach(function (unit) {
      var types = (unit.getAttribute("data-types") || "").split(/\s+/).filter(Boolean);
      unit.classList.toggle("minor", types.length > 0 && types.every(function (t) { return nonSubstantive.indexOf(t) >= 0; }));
    });
  }

  /* ------------------------------------------------------------------ search */

  var MARKS = /[\u0300-\u036f\u064b-\u065f\u0670\u06d6-\u06ed\u0640\u0591-\u05c7]/g;
  var ASCII = /^[\x00-\x7f]*$/;
  var WHITESPACE = /\s/;

  /* Text folded for matching: case, diacritics and Arabic vowel signs and tatweel do not count, and a run
     of whitespace is one space. Each folded character remembers its text node and offset. */
  function foldedText(roots, skip) {
    var chars = [];
    var nodes = [];
    var offsets = [];
    var space = true;
    roots.forEach(function (root) {
      var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
        acceptNode: function (node) {
          if (node.nodeType === Node.ELEMENT_NODE) {
            return skip(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
          }
          return NodeFilter.FILTER_ACCEPT;
        }
      });
      for (var node = walker.nextNode(); node; node = walker.nextNode()) {
        var data = node.data;
        var ascii = ASCII.test(data);
        if (ascii) { data = data.toLowerCase(); }
        for (var i = 0; i < data.length; i++) {
          var folded = ascii ? data[i] : data[i].normalize("NFD").replace(MARKS, "").toLowerCase();
          if (WHITESPACE.test(folded)) {
            if (space) { continue; }
            folded = " ";
          }
          for (var j = 0; j < folded.length; j++) { chars.push(folded[j]); nodes.push(node); offsets.push(i); }
          space = folded === " ";
        }
      }
      if (!space) { chars.push(" "); nodes.push(null); offsets.push(0); space = true; }
    });
    return { text: chars.join(""), nodes: nodes, offsets: offsets };
  }

  function fold(query) {
    return query.normalize("NFD").replace(MARKS, "").toLowerCase().replace(/\s+/g, " ").trim();
  }

  function findIn(roots, skip, query, where) {
    var folded = foldedText(roots, skip);
    var found = [];
    for (var at = folded.text.indexOf(query); at >= 0; at = folded.text.indexOf(query, at + 1)) {
      var last = at + query.length - 1;
      if (!folded.nodes[at] || !folded.nodes[last]) { continue; }
      var range = document.createRange();
      range.setStart(folded.nodes[at], folded.offsets[at]);
      range.setEnd(folded.nodes[last], folded.offsets[last] + 1);
      found.push({ range: range, where: where });
    }
    return found;
  }

  function hiddenForSearch(element) {
    return element.hidden || (element.classList.contains("rdg") && !element.classList.contains("shown"))
      || element.classList.contains("sigla-more");
  }

  function search() {
    var query = fold(page.search.value);
    page.matches = [];
    page.match = -1;
    if (query) {
      page.matches = findIn([page.text], hiddenForSearch, query, "text").concat(
        findIn(Array.prototype.slice.call(document.querySelectorAll(".entries > .entry:not([hidden])")),
          function (e) { return hiddenForSearch(e) && !e.classList.contains("sigla-rest"); }, query, "apparatus"));
    }
    var inText = page.matches.filter(function (m) { return m.where === "text"; }).length;
    var inApparatus = page.matches.length - inText;
    page.searchStatus.textContent = !query ? "" : page.matches.length
      ? inText + " in the text, " + inApparatus + " in the apparatus"
      : "not found";
    paintMatches();
  }

  function paintMatches() {
    if (!window.CSS || !CSS.highlights || typeof Highlight === "undefined") { return; }
    var all = new Highlight();
    page.matches.forEach(function (m) { all.add(m.range); });
    CSS.highlights.set("search", all);
    var current = new Highlight();
    if (page.matches[page.match]) { current.add(page.matches[page.match].range); }
    CSS.highlights.set("search-current", current);
  }

  function stepMatch(step) {
    if (!page.matches.length) { return; }
    page.match = (page.match + step + page.matches.length) % page.matches.length;
    var match = page.matches[page.match];
    var holder = match.range.startContainer.parentElement;
    var rest = holder.closest(".sigla-rest");
    if (rest && rest.hidden) { toggleSigla(rest.previousElementSibling); }
    holder.scrollIntoView({ block: "center" });
    page.searchStatus.textContent = (page.match + 1) + " of " + page.matches.length + " (" + match.where + ")";
    paintMatches();
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
      var target = event.target.classList && event.target.classList.contains("unit-handle") ? event.target.parentElement : event.target;
      var unit = target.classList && target.classList.contains("app") ? target : null;
      if (unit && !unit.classList.contains("filtered")) { event.preventDefault(); activate(unit, {}); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { closePanel(); }
    });
    document.addEventListener("click", function (event) {
      if (event.target.classList.contains("sigla-more")) { toggleSigla(event.target); }
    });
    page.select.addEventListener("change", function () { showWitness(page.select.value); search(); });
    page.marks.addEventListener("change", function () { setMarks(page.marks.value); });
    var pending = null;
    page.search.addEventListener("input", function () {
      clearTimeout(pending);
      pending = setTimeout(search, 150);
    });
    page.search.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); clearTimeout(pending); search(); stepMatch(event.shiftKey ? -1 : 1); }
    });
    page.search.form.addEventListener("submit", function (event) { event.preventDefault(); });
    document.querySelectorAll(".search-step").forEach(function (button) {
      button.addEventListener("click", function () { stepMatch(parseInt(button.getAttribute("data-step"), 10)); });
    });
    page.tabs.forEach(function (tab, index) {
      tab.addEventListener("click", function () { selectTab(tab, false); });
      tab.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (step) { selectTab(page.tabs[(index + step + page.tabs.length) % page.tabs.length], true); }
      });
    });
    page.heatmap.addEventListener("keydown", moveAlongHeatmap);
    window.addEventListener("hashchange", followHash);
    var resizing = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizing);
      resizing = setTimeout(function () {
        var room = Math.floor(page.heatmap.clientWidth / HEAT_CELL_MIN);
        if (Math.max(1, Math.min(HEAT_BINS, page.units.length, room)) !== page.heatBins) { drawHeatmap(); }
        if (page.panel.classList.contains("open")) { document.documentElement.classList.toggle("sheet-open", onPhone()); }
      }, 200);
    });
  }

  /* What only works with the script appears with it: controls, tabs, and units and notes as buttons. */
  function enhance() {
    page.units.forEach(function (unit) {
      var control = unit;
      if (unit.querySelector(".app")) {
        control = document.createElement("span");
        control.className = "unit-handle";
        control.setAttribute("aria-label", "Unit " + unit.getAttribute("data-n") + " (it holds other units)");
        unit.insertBefore(control, unit.firstChild);
        unit.handle = control;
      }
      control.tabIndex = 0;
      control.setAttribute("role", "button");
      control.setAttribute("aria-expanded", "false");
      control.setAttribute("aria-controls", "entry-panel");
      nameUnit(unit, readingFor(unit, ""));
    });
    page.text.querySelectorAll(".note-ref").forEach(function (marker) {
      marker.tabIndex = 0;
      marker.setAttribute("role", "button");
      marker.setAttribute("aria-label", "Note");
    });
    document.querySelector(".controls").hidden = false;
    document.querySelector(".heat-figure").hidden = false;
    page.panel.hidden = false;
    document.querySelector(".tabs").hidden = false;
    setMarks("line");
    weighUnits();
    selectTab(page.tabs[0], false);
  }

  function start() {
    page.text = document.getElementById("reading-text");
    page.panel = document.getElementById("entry-panel");
    page.select = document.getElementById("witness-select");
    page.witnessStatus = document.getElementById("witness-status");
    page.marks = document.getElementById("marks-select");
    page.search = document.getElementById("search-input");
    page.searchStatus = document.getElementById("search-status");
    page.heatmap = document.getElementById("heatmap");
    page.tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));
    page.units = Array.prototype.slice.call(page.text.querySelectorAll(".app"));
    page.lacunaElements = !!page.text.querySelector("[data-lacking]") || page.text.hasAttribute("data-lacking");
    page.matches = [];
    enhance();
    isolateRightToLeft(page.text);
    page.witnesses = declaredWitnesses();
    page.offsets = unitOffsets();
    buildFilters();
    buildSynopticChoices();
    shortenSigla();
    wire();
    drawHeatmap();
    followHash();
    document.documentElement.classList.add("ready");
    performance.mark("tei-edition-ready");
  }

  /* A witness's text as the page draws it: the spaces TEI implies, each run of whitespace one space. */
  function displayedText(witness) { return displayText(page.text, witness).trim(); }

  window.teiEdition = {
    witnessText: witnessText, displayedText: displayedText, showWitness: showWitness, activate: activate, search: search
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
