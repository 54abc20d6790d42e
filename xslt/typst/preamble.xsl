<?xml version="1.0" encoding="UTF-8"?>
<!--
  The Typst functions of the print edition, written at the top of every generated .typ file so that
  the file compiles on its own (typst compile edition.typ) and can be tuned by hand.

  How the apparatus is keyed to line numbers, with no Typst package:
  - the line-numbering function of the edition text places one marker per line (metadata <tei-line>
    holding the line's number) and prints the number on every fifth line;
  - each unit places an anchor (metadata <tei-lemma>) just before its lemma and one (labelled
    tei-end-ID) just after it; an entry's line number is that of the nearest marker at or above the anchor on its page;
  - each anchor also carries an invisible footnote, so that Typst itself keeps the lemma's line and
    the space its entry needs on one page. The footnote reserves an estimate that depends on the entry
    alone (its length over the line width, in apparatus lines; the method of paragraph footnotes in
    TeX), so the page breaks never feed back on themselves; the first entry of a page draws the
    apparatus of the whole page, series a then series b, from the top of the reserved space.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:template name="typst-preamble">
    <xsl:text><![CDATA[
// ---- The print edition's functions (xslt/typst/preamble.xsl) --------------------------------
#let tei-isolate(body) = [#"\u{2068}"#body#"\u{2069}"]
#let tei-rtl-languages = ("ar", "fa", "ur", "he", "yi", "syr", "ps", "ckb", "dv")

// Text in another language (xml:lang): its own direction, isolated from the text around it.
#let tei-lang(code, body) = {
  let primary = lower(code.split("-").first())
  if primary.len() < 2 or primary.len() > 3 { return body }
  let direction = if primary in tei-rtl-languages { rtl } else { ltr }
  tei-isolate(text(lang: primary, dir: direction, body))
}

// A paragraph of the edition text in its language (xml:lang on ab or p); the direction follows it.
#let tei-block-lang(code, body) = {
  let primary = lower(code.split("-").first())
  if primary.len() < 2 or primary.len() > 3 { return body }
  let direction = if primary in tei-rtl-languages { rtl } else { ltr }
  set text(lang: primary, dir: direction)
  body
}

// Every line's number is laid out, hidden between the printed ones, so that every marker sits at the
// same height in its line (the top).
#let tei-line-marker(n) = [#metadata(n)<tei-line>#if calc.rem(n, tei-line-step) == 0 [#n] else { hide[#n] }]

// The line markers of a page as (y, number) pairs from the top.
#let tei-markers(page) = (
  query(<tei-line>)
    .filter(marker => marker.location().page() == page)
    .map(marker => (marker.location().position().y, marker.value))
)

#let tei-anchors(page) = query(<tei-lemma>).filter(anchor => anchor.location().page() == page)

// The number of a position's line: the last marker at or above it (a marker sits at the top of its
// line, an anchor lower, on the baseline); an anchor above every marker of its page (at the very top
// of a paragraph) belongs to the first line. A binary search: markers are sorted from the top.
#let tei-line-at(position, markers) = {
  if markers.len() == 0 { return none }
  let (low, high) = (0, markers.len() - 1)
  while low < high {
    let middle = calc.div-euclid(low + high + 1, 2)
    if markers.at(middle).first() <= position.y + 1pt { low = middle } else { high = middle - 1 }
  }
  markers.at(low).last()
}

// The line labels ("12", "12–13") of a page's anchors, computed together: one query per page.
#let tei-line-labels(page, anchors) = {
  let markers = tei-markers(page)
  anchors.map(anchor => {
    let first = tei-line-at(anchor.location().position(), markers)
    let ends = query(label("tei-end-" + anchor.value.id))
    let end = if ends.len() > 0 { ends.first().location().position() }
    let last = if end == none { first } else if end.page == page { tei-line-at(end, markers) } else { tei-line-at(end, tei-markers(end.page)) }
    if first == none { "?" } else if last == none or last == first { str(first) } else { str(first) + "–" + str(last) }
  })
}

#let tei-entry(data, label) = [#box(strong(label))#h(0.4em)#data.lemma\]#h(0.3em)#data.readings]

// Justified, broken line by line ("simple"): the apparatus is laid out on every pass of the layout,
// and first-fit breaking costs a fifth of the optimal one here.
#let tei-series-paragraph(entries) = par(
  justify: true, linebreaks: "simple", first-line-indent: 0pt, hanging-indent: 0pt,
  entries.map(((data, label)) => tei-entry(data, label)).join(h(tei-entry-gap, weak: true)),
)

// The apparatus of one page: a rule, then series a, then series b.
#let tei-page-apparatus(page, anchors) = {
  set par.line(numbering: none)
  set text(size: tei-apparatus-size)
  set par(leading: tei-apparatus-leading)
  let entries = anchors.map(anchor => anchor.value).zip(tei-line-labels(page, anchors))
  let parts = (line(length: 100%, stroke: 0.4pt),)
  for series in ("a", "b") {
    let chosen = entries.filter(((data, label)) => data.series == series)
    if chosen.len() > 0 { parts.push(block(width: 100%, tei-series-paragraph(chosen))) }
  }
  stack(dir: ttb, spacing: tei-apparatus-leading * 1.6, ..parts)
}

#let tei-apparatus-pitch() = {
  let sample(body) = measure(block(width: 10cm, {
    set text(size: tei-apparatus-size)
    set par(leading: tei-apparatus-leading)
    body
  })).height
  sample[x \ x] - sample[x]
}

// The space one entry reserves: its characters (counted by the stylesheet) times an average width,
// over the line width, in apparatus lines. The first entry of a page also draws the page's apparatus,
// from the top of the reserved space (a short estimate runs on into the bottom margin, never into
// the text). The drawing's box is as tall as the page: in the entry's own small region a stack of
// blocks would be laid out overlapping.
#let tei-entry-space(data, page-number, width) = {
  let own = (data.chars * tei-average-character + tei-apparatus-size) / width * tei-apparatus-pitch() * tei-estimate-factor
  let anchors = tei-anchors(page-number)
  let drawing = if anchors.len() > 0 and anchors.first().value.key == data.key {
    place(top, box(width: width, height: page.height, tei-page-apparatus(page-number, anchors)))
  }
  block(width: 100%, height: own, spacing: 0pt, drawing)
}



#let tei-anchor(data) = [#metadata(data)<tei-lemma>#footnote(metadata(data))]

// The end of a unit's lemma, findable by the unit's id.
#let tei-lemma-end(id) = [#metadata(id)#label("tei-end-" + id)]

// A variation unit: anchors for its entries (a dictionary series -> (chars, lemma, readings)), then the
// lemma, whose first word shares a box with the anchors (a line may break after a box, and a footnote
// removes the space before it: boxed together, anchor and lemma start on the same line).
#let tei-app(id, entries, lead, first-word, rest) = {
  let anchors = for (series, entry) in entries {
    tei-anchor((key: id + "/" + series, id: id, series: series, chars: entry.chars, lemma: entry.lemma, readings: entry.readings))
  }
  lead
  if entries.len() > 0 { box(anchors + first-word) } else { first-word }
  rest
  tei-lemma-end(id)
}

#let tei-text(body) = {
  set par.line(numbering: tei-line-marker, number-clearance: 1.2em)
  set par(justify: true, first-line-indent: 0pt, spacing: 1.1em)
  body
}

#let tei-section-head(body) = block(above: 1.4em, below: 0.9em, text(weight: "bold", body))

#let tei-conspectus(witnesses) = {
  heading(level: 2, outlined: false, tei-labels.conspectus)
  grid(columns: (auto, 1fr), column-gutter: 1.2em, row-gutter: 0.8em,
    ..witnesses.map(((siglum, description)) => (text(weight: "bold", siglum), description)).flatten())
}

#let tei-title-page(title, statements, witnesses) = page(header: none, footer: none, {
  set par.line(numbering: none)
  v(18%)
  align(center, text(size: 1.6em, weight: "bold", title))
  v(2em)
  for statement in statements { align(center, statement); v(0.6em) }
  v(3em)
  tei-conspectus(witnesses)
})

#let tei-edition(title: [], running-head: [], body) = {
  set document(title: running-head)
  set text(font: tei-fonts, size: tei-font-size, lang: tei-language)
  set page(
    paper: tei-paper,
    margin: (inside: 2.6cm, outside: 2.2cm, top: 2.4cm, bottom: 2.2cm),
    header: context {
      set text(size: 0.85em)
      let number = counter(page).get().first()
      if calc.even(number) [#number #h(1fr) #smallcaps(running-head)] else [#smallcaps(running-head) #h(1fr) #number]
      v(-0.4em)
      line(length: 100%, stroke: 0.3pt)
    },
    footer: none,
  )
  set footnote(numbering: n => none)
  set footnote.entry(gap: 0pt, indent: 0pt, separator: none,
    clearance: 1.2em)
  show footnote.entry: set par.line(numbering: none)
  show footnote.entry: it => context layout(size => tei-entry-space(it.note.body.value, it.note.location().page(), size.width))
  body
}
// ---- The edition --------------------------------------------------------------------------------
]]></xsl:text>
  </xsl:template>

</xsl:stylesheet>
