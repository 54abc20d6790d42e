<?xml version="1.0" encoding="UTF-8"?>
<!--
  The Typst functions of the print edition, written at the top of every generated .typ file so that
  the file compiles on its own (typst compile edition.typ) and can be tuned by hand.

  The same source is compiled in one of three modes (sys.inputs "tei-mode"):
  - "measure" (tei/render/typst_pdf.py, first pass): the text alone on one page of unlimited height and
    the page's width; every line reports its number, kind and height (<tei-data>), every unit where
    its lemma starts and ends, every paragraph start (a "hook"), and every entry its natural width;
  - "final" (second pass, with the page plan in sys.inputs "tei-plan"): Python has chosen the lines
    of each page, the printed number of each line (verse lines counted, headings, speakers and stage
    directions unnumbered) and the entries each page's apparatus holds (continued on the next page
    when a page cannot hold them). The first hook of each page carries an invisible footnote as tall
    as the page's apparatus, drawn inside it: the page then breaks exactly after its planned lines,
    and the apparatus can never run into the bottom margin;
  - "standalone" (no plan: `typst compile edition.typ`): each unit's entry is a plain Typst footnote.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:template name="typst-preamble">
    <xsl:text><![CDATA[
// ---- The print edition's functions (xslt/typst/preamble.xsl) --------------------------------
#let tei-mode = sys.inputs.at("tei-mode", default: "standalone")
#let tei-plan = if tei-mode == "final" { json(bytes(sys.inputs.at("tei-plan"))) } else { none }
#let tei-rtl-languages = ("ar", "ara", "fa", "fas", "per", "ur", "urd", "he", "heb", "yi", "syr", "ps", "ckb", "dv", "arc", "ug", "sd")

#let tei-primary(code) = lower(code.split("-").first())
// A script subtag decides first (ar-Latn, a transliteration: left to right, in the chain's fonts, not
// Arabic's); the rule of text-direction in xslt/common/apparatus.xsl and of tei.render.fonts.
#let tei-rtl-scripts = ("arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "samr", "mand")
#let tei-script(code) = {
  let second = code.split("-").slice(1).at(0, default: "")
  if second.len() == 4 and second.match(regex("^[A-Za-z]{4}$")) != none { lower(second) } else { "" }
}
#let tei-direction(code) = {
  let script = tei-script(code)
  if script != "" { if script in tei-rtl-scripts { rtl } else { ltr } }
  else if tei-primary(code) in tei-rtl-languages { rtl } else { ltr }
}

// The fonts of a language: its own family first (tei-language-fonts), then the fallback chain.
#let tei-fonts-for(code) = {
  let script = tei-script(code)
  let native = script == "" or (script in tei-rtl-scripts) == (tei-primary(code) in tei-rtl-languages)
  let own = if native { tei-language-fonts.at(tei-primary(code), default: ()) } else { () }
  own + tei-fonts.filter(font => font not in own)
}

// Text in another language (xml:lang): its language, fonts and direction. Vocalised Arabic, Hebrew,
// Syriac ... get line boxes from the glyphs' own bounds, so that the marks of two lines never touch.
#let tei-lang(code, body) = {
  let primary = tei-primary(code)
  if primary.len() < 2 or primary.len() > 3 { return body }
  text(lang: primary, font: tei-fonts-for(code), body)
}

// Text in a direction of its own inside a line (a note in English in an Arabic apparatus): between two
// marks of that direction (LRM or RLM), so that its punctuation at either end (a full stop) takes its
// direction, not the line's. Not the isolates LRI/RLI ... PDI: Typst copies those into the PDF's text;
// unlike a box, it still breaks across lines.
#let tei-directed(direction, body) = if direction == rtl [\u{200F}#body\u{200F}] else [\u{200E}#body\u{200E}]

]]></xsl:text>
  </xsl:template>

  <!-- The functions that use the entries (written after the dictionary tei-entries). -->
  <xsl:template name="typst-preamble-layout">
    <xsl:text><![CDATA[
// A number printed in the margin when the plan gives the line one and it falls on the step.
#let tei-shown-number(label) = if label != none and calc.rem(label, tei-line-step) == 0 [#label] else []

// The line-numbering function of a block of the given kind ("prose", "verse", "head", "speaker",
// "stage"). The marker sits in the margin at the top of its line.
// The direction is the block's (text.dir where the marker is laid out is the page's, not the line's:
// every line of an Arabic block reported ltr).
#let tei-line-marker(kind, block, n, direction: auto) = {
  if tei-mode == "measure" {
    context [#metadata((line: n, kind: kind, block: block,
      leading: par.leading.to-absolute().pt(), dir: repr(if direction == auto { text.dir } else { direction })))<tei-at>]
  } else if tei-mode == "final" {
    let label = tei-plan.labels.at(str(n), default: none)
    // Only the first and last line of each planned page report their page (a line that moved moves one
    // of them): a context for every line made the final pass a fifth slower.
    if str(n) in tei-plan.checks [#context [#metadata((line: n, page: here().page()))<tei-check>]#tei-shown-number(label)] else [#tei-shown-number(label)]
  } else if kind in ("prose", "verse") and calc.rem(n, tei-line-step) == 0 [#n]
}

// An entry: the line label, the lemma (boxed by the stylesheet where it may hold right-to-left text),
// the readings. No line breaks between the label and the lemma (word joiners around the space: a label
// ended many apparatus lines, its lemma on the next).
// The bracket after the lemma: ']', which right to left (a right-to-left edition's apparatus,
// tei-apparatus-direction) Typst's bidi algorithm mirrors to '[' on the lemma's left, facing it, as the
// web page and reledmac show it.
// The entry of a left-to-right unit in a right-to-left apparatus (an English paragraph of an Arabic
// edition; the stylesheet's ltr: true) is a left-to-right embedding (LRE ... PDF), as reledmac sets a note
// in the direction of its lemma's paragraph: two LRMs left an Arabic reading ordering the entry's parts
// right to left. (Not the isolates LRI ... PDI: Typst copies those into the PDF's text.)
#let tei-entry-body(data) = [#data.lemma\]#h(0.3em)#data.readings]
#let tei-entry(key, label) = {
  let data = tei-entries.at(key)
  let (start, end) = if data.at("ltr", default: false) { ([\u{202A}], [\u{202C}]) } else { ([], []) }
  if label == "" [#start#tei-entry-body(data)#end] else [#start#box(strong(label))#sym.wj#h(0.4em)#sym.wj#tei-entry-body(data)#end]
}

// The apparatus's line boxes: down to the descenders, so that the last line's descenders stay above the
// bottom margin. Left to right, those of the main font (Noto Serif's cap height and descender) for every
// line: a line holding a word of Amiri (a ﷺ) took Amiri's deeper descender, and the lines after it came
// lower than the apparatus's measured height (the seeds: series b drawn over the last line of series a).
// Right to left, the apparatus is Arabic or Hebrew throughout: its own font's descender.
#let tei-apparatus-edges = if tei-apparatus-direction == ltr { (top-edge: 0.714em, bottom-edge: -0.293em) } else {
  (bottom-edge: "descender")
}

// Justified, broken line by line ("simple", first-fit: the breaking the plan's estimate assumes).
#let tei-series-paragraph(entries) = par(
  justify: true, linebreaks: "simple", first-line-indent: 0pt, hanging-indent: 0pt,
  entries.map(((key, label)) => tei-entry(key, label)).join(h(tei-entry-gap, weak: true)),
)

#let tei-apparatus-drawing(entries) = {
  set par.line(numbering: none)
  set text(size: tei-apparatus-size, dir: tei-apparatus-direction, hyphenate: false, ..tei-apparatus-edges)
  set par(leading: tei-apparatus-leading)
  let parts = (line(length: 100%, stroke: 0.4pt),)
  for series in ("a", "b") {
    let chosen = entries.filter(((key, label)) => key.ends-with("/" + series))
    if chosen.len() > 0 { parts.push(block(width: 100%, tei-series-paragraph(chosen))) }
  }
  stack(dir: ttb, spacing: tei-series-spacing, ..parts)
}

// The apparatus of one page, in the footnote that reserves its height (the plan's), at its foot (the
// space above it fills the rest). The check reports where the drawing starts and ends: the height it
// needed (more than reserved: it ran on below the block). Measuring the drawing apart, with measure(),
// laid every apparatus out twice: a third of the final pass.
#let tei-page-apparatus(id, spec) = {
  block(width: 100%, height: spec.height * 1pt, spacing: 0pt, breakable: false, {
    v(1fr)
    context [#metadata((drawing: id, y: here().position().y.pt()))<tei-check>]
    tei-apparatus-drawing(spec.entries)
    context [#metadata((hook: id, page: here().page(), y: here().position().y.pt(), reserved: spec.height))<tei-check>]
  })
}

// A paragraph start or a unit: where the footnote that reserves a page's apparatus can hang.
#let tei-hook(id) = {
  if tei-mode == "measure" {
    [#metadata((hook: id))<tei-at>]
  } else if tei-mode == "final" {
    let spec = tei-plan.hooks.at(id, default: none)
    if spec != none { footnote(tei-page-apparatus(id, spec)) }
  }
}

// Whether a block's xml:lang names a language (a code of two or three letters), and the block's direction.
#let tei-declared(code) = code != "" and tei-primary(code).len() in (2, 3)
#let tei-block-direction(code) = if tei-declared(code) { tei-direction(code) } else { tei-text-direction }

// A block of the text: its kind decides how its lines are numbered; its language its direction.
#let tei-block(kind, id, code, body) = {
  let direction = tei-block-direction(code)
  set par.line(numbering: n => tei-line-marker(kind, id, n, direction: direction))
  // Verse lines follow one another at the leading, not the paragraph spacing.
  set par(spacing: tei-leading, justify: false) if kind == "verse"
  let content = [#tei-hook(id)#body]
  if tei-declared(code) {
    let rtl-text = tei-direction(code) == rtl
    set text(lang: tei-primary(code), dir: tei-direction(code), font: tei-fonts-for(code))
    set text(top-edge: "bounds", bottom-edge: "bounds") if rtl-text
    set par(leading: tei-rtl-leading) if rtl-text
    content
  } else { content }
}

// A heading, speaker or stage direction is a block of its own, set in its language's direction: a paragraph
// takes its direction (its alignment) from around the block that holds it, not from inside.
#let tei-directed(code, it) = if tei-declared(code) {
  set text(dir: tei-direction(code))
  it
} else { it }
#let tei-section-head(id, code, body) = tei-directed(code, block(above: 1.4em, below: 0.9em, tei-block("head", id, code, strong(body))))
#let tei-speaker(id, code, body) = tei-directed(code, block(above: 0.8em, below: 0.3em, tei-block("speaker", id, code, smallcaps(body))))
// A stage direction is indented at the side its lines start from (the right, right to left).
#let tei-stage(id, code, body) = {
  let indent = if tei-block-direction(code) == rtl { (right: 1.5em) } else { (left: 1.5em) }
  tei-directed(code, block(above: 0.5em, below: 0.5em, pad(..indent, tei-block("stage", id, code, emph(body)))))
}

// A variation unit: a hook (the unit's id) boxed with the lemma's first word, so that both start on
// the same line; the lemma; its end (measured, to key a lemma over several lines to both).
#let tei-app(id, keys, lead, first-word, rest, addition: false) = {
  lead
  if keys.len() == 0 { first-word } else if tei-mode == "measure" {
    // An addition (no base text): where a line broke before it, it stays with the word it follows
    // (tei/render/typst_pdf.py).
    box[#tei-hook(id)#metadata((unit: id, keys: keys, addition: addition))<tei-data>#first-word]
  } else if tei-mode == "final" {
    box[#tei-hook(id)#first-word]
  } else {
    box[#first-word#footnote(keys.map(key => tei-entry(key, "")).join(h(1em)))]
  }
  rest
  if keys.len() > 0 and tei-mode == "measure" [#metadata((end: id))<tei-at>]
}

// Where each line, hook and unit end (<tei-at>) stands: read once, after the text, by one query. A
// context asking here() at each of them (a thousand for the seeds) cost a fifth of the measure pass.
#let tei-positions() = context {
  for found in query(<tei-at>) {
    let at = found.location().position()
    [#metadata((..found.value, y: at.y.pt(), x: at.x.pt()))<tei-data>]
  }
}

// What the plan needs to know besides the text: sizes, and the natural width of every entry.
#let tei-measurements() = context {
  let sample(body) = measure(block(width: 10cm, {
    set text(size: tei-apparatus-size, ..tei-apparatus-edges)
    set par(leading: tei-apparatus-leading)
    body
  })).height
  let app-size(body) = measure({ set text(size: tei-apparatus-size); body }).width
  [#metadata((
    apparatus-line: sample[x].pt(),
    apparatus-pitch: (sample[x \ x] - sample[x]).pt(),
    digit: app-size(strong[0]).pt(),
    dash: app-size(strong[–]).pt(),
    label-gap: app-size(h(0.4em)).pt(),
    entry-gap: app-size(h(tei-entry-gap)).pt(),
    series-spacing: measure(v(tei-series-spacing)).height.pt(),
    rule: 0.4,
    clearance: measure(v(tei-apparatus-clearance)).height.pt(),
    leading: measure(v(par.leading)).height.pt(),
    text-size: measure(v(1em)).height.pt(),
  ))<tei-data>]
  for (key, data) in tei-entries {
    [#metadata((entry: key, width: app-size(tei-entry-body(data)).pt()))<tei-data>]
  }
  tei-positions()
}

#let tei-text(body) = {
  set par.line(numbering: n => tei-line-marker("prose", "", n), number-clearance: 1.2em)
  set par(justify: true, first-line-indent: 0pt, spacing: 1.1em)
  if tei-mode == "measure" {
    layout(size => [#metadata((text-width: size.width.pt()))<tei-data>])
  }
  body
  // The apparatus no page with text could hold, continued after the text on pages of its own.
  if tei-mode == "final" and tei-plan.tail.len() > 0 {
    pagebreak(weak: true)
    set par.line(numbering: none)
    set text(size: tei-apparatus-size, dir: tei-apparatus-direction, hyphenate: false)
    set par(leading: tei-apparatus-leading)
    line(length: 100%, stroke: 0.4pt)
    for series in ("a", "b") {
      let chosen = tei-plan.tail.filter(((key, label)) => key.ends-with("/" + series))
      if chosen.len() > 0 { tei-series-paragraph(chosen) }
    }
  }
  // Series c (a loose rendering's clauses, print.xsl's paraphrase-series), after the text: one paragraph
  // for each entry, keyed to the lines of the text.
  if tei-mode == "final" and tei-plan.end.len() > 0 {
    set par.line(numbering: none)
    v(1.2em, weak: true)
    set text(size: tei-apparatus-size, dir: tei-apparatus-direction, hyphenate: false)
    block(below: 0.8em, strong(tei-labels.paraphrase))
    set par(leading: tei-apparatus-leading, spacing: tei-apparatus-leading * 1.6, justify: true,
      first-line-indent: 0pt, hanging-indent: 1.5em)
    for (key, label) in tei-plan.end { tei-entry(key, label); parbreak() }
  }
}

#let tei-conspectus(witnesses) = {
  heading(level: 2, outlined: false, tei-labels.conspectus)
  grid(columns: (auto, 1fr), column-gutter: 1.2em, row-gutter: 0.8em,
    ..witnesses.map(((siglum, description)) => (text(style: "italic", siglum), description)).flatten())
}

#let tei-title-page(title, statements, witnesses) = if tei-mode != "measure" {
  page(header: none, footer: none, {
    set par.line(numbering: none)
    v(18%)
    align(center, text(size: 1.6em, weight: "bold", title))
    v(2em)
    for (direction, statement) in statements { align(center, text(dir: direction, statement)); v(0.6em) }
    v(3em)
    tei-conspectus(witnesses)
  })
}

#let tei-edition(running-head: [], body) = {
  set document(title: running-head)
  set text(font: tei-fonts, size: tei-font-size, lang: tei-language, dir: tei-text-direction,
    costs: (widow: 0%, orphan: 0%, runt: 0%))
  set par(leading: tei-leading)
  set page(
    paper: tei-paper,
    margin: (inside: 2.6cm, outside: 2.2cm, top: tei-margin-top, bottom: tei-margin-bottom),
    // The running head and the page number apart: the head on the inner side, the number outside.
    header: context {
      set text(size: 0.85em)
      let number = counter(page).get().first()
      // Clipped at its width only: the box's height is the glyphs' bounds, so the dots below ب and ي of an
      // Arabic head stay (with the default edges, baseline to cap height, they were cut off).
      let head = box(width: 75%, clip: true, text(top-edge: "bounds", bottom-edge: "bounds", smallcaps(running-head)))
      if calc.even(number) [#number #h(1fr) #head] else [#head #h(1fr) #number]
      v(-0.4em)
      line(length: 100%, stroke: 0.3pt)
    },
    footer: none,
  )
  set footnote(numbering: n => none)
  set footnote.entry(gap: 0pt, indent: 0pt, separator: none, clearance: tei-apparatus-clearance)
  show footnote.entry: set par.line(numbering: none)
  show footnote.entry: it => if tei-mode == "final" { it.note.body } else {
    set text(size: tei-apparatus-size)
    it.note.body
  }
  if tei-mode == "measure" {
    // The page's height, then the text on one page of unlimited height.
    context [#metadata((body-height: (page.height - tei-margin-top - tei-margin-bottom).pt()))<tei-data>]
    set page(height: auto, header: none)
    body
  } else { body }
}
// ---- The edition --------------------------------------------------------------------------------
]]></xsl:text>
  </xsl:template>

</xsl:stylesheet>
