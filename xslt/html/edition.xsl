<?xml version="1.0" encoding="UTF-8"?>
<!--
  The web edition: one static HTML page (with edition.css and edition.js beside it) from a
  parallel-segmentation TEI edition. A thin layer over ../common/apparatus.xsl: it overrides the hooks
  emit-siglum, entry-reading, emit-warning and emit-transposition-partner, and adds the page around them.

      xsltproc \-\-stringparam assets '' xslt/html/edition.xsl edition.xml > index.html
      (then copy xslt/html/edition.css and xslt/html/edition.js next to index.html)

  Parameters: xslt/html/params.xsl. Modes added here: text (the reading text), conspectus.
  Without JavaScript the page is the reading text, its apparatus and the conspectus; the script adds the
  controls, the views and makes units and note markers operable.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:tk="urn:x-tei-toolkit:render"
    exclude-result-prefixes="tei tk">

  <xsl:import href="../common/apparatus.xsl"/>
  <xsl:import href="../common/quran-index.xsl"/>
  <xsl:import href="../common/conspectus.xsl"/>
  <xsl:include href="params.xsl"/>
  <xsl:include href="isnad-diagram.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:variable name="text-lang">
    <xsl:choose>
      <xsl:when test="/tei:TEI/@xml:lang"><xsl:value-of select="/tei:TEI/@xml:lang"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$default-lang"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- The direction of the edition: its declared language, else that of its text or body. '' = undeclared
       (the page then lets each block and each entry take the direction of its first strong letter). -->
  <xsl:variable name="edition-lang"
      select="(/tei:TEI/@xml:lang | (//tei:text)[1]/@xml:lang | (//tei:text/tei:body)[1]/@xml:lang)[last()]"/>
  <xsl:variable name="edition-dir">
    <xsl:choose>
      <xsl:when test="$edition-lang"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="$edition-lang"/></xsl:call-template></xsl:when>
      <xsl:otherwise>auto</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- An edition whose units mark their text with lem (most of its units have one): there, a unit without
       lem holds words some witnesses add, and it is not part of the reading text. -->
  <xsl:variable name="marks-lemmata"
      select="count(//tei:app[tei:lem or tei:rdgGrp//tei:lem]) * 2 > count(//tei:app)"/>
  <xsl:variable name="encoding-method" select="normalize-space((//tei:variantEncoding/@method)[1])"/>

  <xsl:variable name="page-title">
    <xsl:choose>
      <xsl:when test="$title != ''"><xsl:value-of select="$title"/></xsl:when>
      <xsl:when test="//tei:titleStmt/tei:title"><xsl:value-of select="normalize-space((//tei:titleStmt/tei:title)[1])"/></xsl:when>
      <xsl:otherwise>Edition</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- ================================================================ the page -->

  <xsl:template match="/">
    <html lang="{$default-lang}">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="$page-title"/></title>
        <link rel="stylesheet" href="{$assets}edition.css"/>
        <script src="{$assets}edition.js" defer="defer"></script>
      </head>
      <body data-non-substantive="{$non-substantive-types}" data-synoptic-columns="{$synoptic-columns}">
        <xsl:call-template name="citation-data"/>
        <a class="skip-link" href="#reading-text">Skip to the text</a>
        <header class="site-header">
          <h1><xsl:value-of select="$page-title"/></h1>
          <div role="tablist" aria-label="Views" class="tabs" hidden="hidden">
            <button type="button" role="tab" id="tab-text" aria-controls="view-text" aria-selected="true">Reading text</button>
            <button type="button" role="tab" id="tab-synoptic" aria-controls="view-synoptic" aria-selected="false" tabindex="-1">Synoptic view</button>
            <button type="button" role="tab" id="tab-witnesses" aria-controls="view-witnesses" aria-selected="false" tabindex="-1">Witnesses</button>
          </div>
        </header>
        <xsl:variable name="warnings"><xsl:apply-templates select="/" mode="check"/></xsl:variable>
        <xsl:if test="string($warnings) != ''">
          <div class="warnings" role="alert">
            <details>
              <summary>Problems found in this edition (the page shows it as well as it can)</summary>
              <ul><xsl:copy-of select="$warnings"/></ul>
            </details>
          </div>
        </xsl:if>
        <main>
          <xsl:call-template name="text-view"/>
          <section id="view-synoptic" role="tabpanel" aria-labelledby="tab-synoptic" class="view" hidden="hidden">
            <h2>Synoptic view</h2>
            <fieldset class="synoptic-witnesses"><legend>Witnesses shown</legend></fieldset>
            <p class="synoptic-cue" id="synoptic-cue" hidden="hidden">The table is wider than the screen: scroll it sideways (&#x2194;) for more witnesses; the unit column stays in place.</p>
            <!-- In the direction of the edition's language: an Arabic edition's table runs right to left, its
                 cells set from the right (issue 34). -->
            <div id="synoptic" class="synoptic" tabindex="0" role="region" aria-label="Synoptic table" aria-describedby="synoptic-cue">
              <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="/*/@xml:lang"/></xsl:call-template></xsl:attribute>
            </div>
          </section>
          <section id="view-witnesses" role="tabpanel" aria-labelledby="tab-witnesses" class="view">
            <h2>Conspectus siglorum</h2>
            <dl class="conspectus"><xsl:apply-templates select="$witnesses" mode="conspectus"/></dl>
          </section>
        </main>
      </body>
    </html>
  </xsl:template>

  <xsl:template name="text-view">
    <section id="view-text" role="tabpanel" aria-labelledby="tab-text" class="view">
      <div class="controls" hidden="hidden">
        <div class="control">
          <label for="witness-select">Text of </label>
          <select id="witness-select">
            <option value="">the edition (lemmata)</option>
            <xsl:for-each select="$witnesses">
              <xsl:variable name="id"><xsl:call-template name="witness-id"/></xsl:variable>
              <option value="{$id}">
                <xsl:call-template name="siglum"><xsl:with-param name="token" select="$id"/></xsl:call-template>
              </option>
            </xsl:for-each>
            <!-- Groups of witnesses (the reader's members): the text where all members agree. -->
            <xsl:if test="/*/tk:apparatus/tk:group">
              <optgroup label="groups: the text where all members agree" class="groups">
                <xsl:for-each select="/*/tk:apparatus/tk:group">
                  <option value="{@id}" data-members="{@members}"><xsl:value-of select="concat(@siglum, ' = ', @members-sigla)"/></option>
                </xsl:for-each>
              </optgroup>
            </xsl:if>
          </select>
          <span id="witness-status" class="witness-status" role="status"></span>
        </div>
        <div class="control">
          <label for="marks-select">Marks </label>
          <select id="marks-select">
            <option value="line">fine underline</option>
            <option value="number">unit numbers</option>
            <option value="none">none</option>
          </select>
        </div>
        <form class="control search" role="search" action="#">
          <label for="search-input">Find </label>
          <input type="search" id="search-input" autocomplete="off" spellcheck="false"
              aria-describedby="search-status" placeholder="in the text and the apparatus"/>
          <button type="button" class="search-step" data-step="-1" aria-label="Previous match">&#x2191;</button>
          <button type="button" class="search-step" data-step="1" aria-label="Next match">&#x2193;</button>
          <span id="search-status" class="search-status" role="status"></span>
        </form>
        <fieldset class="filters">
          <legend>Reading types shown</legend>
          <xsl:for-each select="//tei:taxonomy[@xml:id = 'reading-types']/tei:category[@xml:id]">
            <span class="type-description" hidden="hidden" data-type="{@xml:id}"><xsl:value-of select="normalize-space(tei:catDesc)"/></span>
          </xsl:for-each>
        </fieldset>
      </div>
      <figure class="heat-figure" hidden="hidden">
        <div id="heatmap" class="heatmap" role="group" aria-label="Density of variation along the text"></div>
        <figcaption class="heat-legend">
          <span>Variation along the text, start to end: each cell is a stretch of text, darker where more variant readings fall; a cell leads to its first unit.</span>
          <span class="heat-scale" aria-hidden="true">fewer <i data-level="0"></i><i data-level="1"></i><i data-level="2"></i><i data-level="3"></i><i data-level="4"></i><i data-level="5"></i> more</span>
        </figcaption>
      </figure>
      <div class="layout">
        <article id="reading-text" class="reading-text" lang="{$text-lang}" tabindex="-1">
          <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="$text-lang"/></xsl:call-template></xsl:attribute>
          <!-- Lacunae opened by elements (the reader's verdict): who lacks the text before any marker. -->
          <xsl:for-each select="/*/tk:apparatus/@lacking-at-start"><xsl:attribute name="data-lacking"><xsl:value-of select="."/></xsl:attribute></xsl:for-each>
          <xsl:apply-templates select="(//tei:text/tei:body)[1]" mode="text"/>
        </article>
        <aside id="entry-panel" class="entry-panel" aria-live="polite" aria-label="Entry of the selected unit" dir="{$edition-dir}" hidden="hidden">
          <p class="hint">Select a marked passage (click, or Tab then Enter) to see its readings.</p>
        </aside>
      </div>
      <section class="apparatus" aria-labelledby="apparatus-heading" dir="{$edition-dir}">
        <h2 id="apparatus-heading" dir="ltr">Apparatus</h2>
        <ol class="entries"><xsl:apply-templates select="//tei:app" mode="entry"/></ol>
      </section>
      <xsl:if test="$quran-citations">
        <section class="quran-index" aria-labelledby="quran-index-heading">
          <h2 id="quran-index-heading">Qur'an verses cited</h2>
          <ul class="verses"><xsl:call-template name="quran-index"/></ul>
        </section>
      </xsl:if>
      <xsl:call-template name="isnad-diagram"/>
    </section>
  </xsl:template>

  <!-- ================================================================ mode text: the reading text -->

  <xsl:template match="text()" mode="text">
    <xsl:if test="not(namespace-uri(..) = 'http://www.tei-c.org/ns/1.0' and contains($element-only, concat(' ', local-name(..), ' ')))">
      <xsl:value-of select="."/>
    </xsl:if>
  </xsl:template>

  <xsl:template match="tei:wit | tei:witDetail | tei:listTranspose | comment() | processing-instruction()" mode="text"/>

  <!-- A note carries no witness text: a marker whose text is drawn by CSS; the note is its title, and the
       script shows it in the entry panel when the marker is activated. -->
  <xsl:template match="tei:note" mode="text">
    <span class="note-ref" title="{normalize-space(.)}"></span>
  </xsl:template>

  <xsl:template match="tei:g[@type = 'char' and starts-with(@n, 'U+')]" mode="text">
    <xsl:call-template name="emit-character"><xsl:with-param name="code" select="substring(@n, 3)"/></xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:body | tei:div | tei:div1 | tei:div2 | tei:div3 | tei:div4 | tei:div5 | tei:div6 | tei:div7
                       | tei:lg | tei:ab | tei:p | tei:head | tei:l | tei:list | tei:item | tei:table | tei:row
                       | tei:front | tei:back | tei:group | tei:text | tei:sp | tei:speaker | tei:listApp
                       | tei:stage[parent::tei:sp or parent::tei:body or parent::tei:lg or parent::tei:front or parent::tei:back
                                   or starts-with(local-name(..), 'div')]" mode="text">
    <div class="tei-{local-name()}">
      <!-- Without a declared language, a block takes its direction from its first strong letter. -->
      <xsl:if test="not(@xml:lang)"><xsl:attribute name="dir">auto</xsl:attribute></xsl:if>
      <xsl:call-template name="passage-anchor"/>
      <xsl:call-template name="text-attributes"/>
      <xsl:if test="self::tei:l[@n]"><xsl:attribute name="data-line"><xsl:value-of select="@n"/></xsl:attribute></xsl:if>
      <xsl:apply-templates mode="text"/>
    </div>
  </xsl:template>

  <xsl:template match="*" mode="text">
    <xsl:call-template name="implied-space"/>
    <xsl:choose>
      <xsl:when test="@xml:lang">
        <bdi class="tei-{local-name()}"><xsl:call-template name="text-attributes"/><xsl:apply-templates mode="text"/></bdi>
      </xsl:when>
      <xsl:otherwise>
        <span class="tei-{local-name()}"><xsl:call-template name="passage-anchor"/><xsl:call-template name="text-attributes"/><xsl:apply-templates mode="text"/></span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- TEI separates the words of a text tokenised in <w> (and units holding them) even without whitespace
       between the elements: the page draws that space (an empty span whose space is drawn by CSS, so that no
       witness gains a character) wherever a word follows a word with nothing between them. -->
  <xsl:template name="implied-space">
    <xsl:if test="(self::tei:w or self::tei:app) and not(@join = 'left' or @join = 'both' or @part = 'M' or @part = 'F')">
      <!-- Whitespace between the children of an element-only element (body, div, lg...) is layout, dropped
           from the page: it cannot separate two words there. -->
      <xsl:call-template name="implied-space-after">
        <xsl:with-param name="before" select="preceding-sibling::node()[1]"/>
        <xsl:with-param name="layout-only" select="contains($element-only, concat(' ', local-name(..), ' '))"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- What the word follows: the nearest preceding sibling that is not a milestone, note, comment or (in an
       element-only parent) layout whitespace, found one sibling at a time (the recursion is as deep as the
       skipped nodes in a row): a filter over the whole preceding-sibling axis, for each of thousands of
       units in one element, is quadratic in their number. -->
  <xsl:template name="implied-space-after">
    <xsl:param name="before"/>
    <xsl:param name="layout-only"/>
    <xsl:choose>
      <xsl:when test="$before[self::tei:lb or self::tei:pb or self::tei:cb or self::tei:milestone
                      or self::tei:anchor or self::tei:note or self::tei:witDetail or self::comment() or self::processing-instruction()
                      or (self::text() and $layout-only and normalize-space() = '')]">
        <xsl:call-template name="implied-space-after">
          <xsl:with-param name="before" select="$before/preceding-sibling::node()[1]"/>
          <xsl:with-param name="layout-only" select="$layout-only"/>
        </xsl:call-template>
      </xsl:when>
      <!-- A <w> stands apart from what is on either side: between two units, either of which holds words. -->
      <xsl:when test="$before[self::tei:w or self::tei:app] and (self::tei:w or .//tei:w or $before[self::tei:w or .//tei:w])
                      and not($before/@join = 'right' or $before/@join = 'both')">
        <span class="implied-space"></span>
      </xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- A space the encoder wrote as an element. -->
  <xsl:template match="tei:c[@type = 'space'][not(node())] | tei:space[not(node())]" mode="text">
    <span class="implied-space"></span>
  </xsl:template>

  <!-- One reading of a choice is shown (orig, sic, abbr: the witness as written); its alternatives are a
       tooltip. The same for a w holding orig and reg without choice. -->
  <xsl:template match="tei:choice | tei:w[tei:orig and tei:reg]" mode="text">
    <xsl:call-template name="implied-space"/>
    <span class="tei-{local-name()} has-alternative">
      <xsl:call-template name="text-attributes"/>
      <xsl:attribute name="title">
        <xsl:for-each select="tei:reg | tei:corr | tei:expan">
          <xsl:if test="position() > 1">; </xsl:if>
          <xsl:value-of select="concat(local-name(), ': ', normalize-space(.))"/>
        </xsl:for-each>
      </xsl:attribute>
      <xsl:apply-templates mode="text"/>
    </span>
  </xsl:template>

  <!-- A citable passage (div, ab, lg, l, seg with an xml:id or an n) has a stable anchor, passage-ID, where ID
       is its xml:id, else the n of it and of the citable passages around it joined by dots (div 2, line 5:
       passage-2.5); data-cite holds ID, which the citation the page copies names, as refsDecl/citeStructure
       and the static DTS responses do. -->
  <xsl:template name="passage-anchor">
    <xsl:if test="(self::tei:div or self::tei:div1 or self::tei:div2 or self::tei:div3 or self::tei:ab or self::tei:lg
                   or self::tei:l or self::tei:seg) and (@xml:id or (@n and not(ancestor::tei:lem or ancestor::tei:rdg)))">
      <xsl:variable name="cite">
        <xsl:choose>
          <xsl:when test="@xml:id"><xsl:value-of select="@xml:id"/></xsl:when>
          <xsl:otherwise>
            <xsl:for-each select="ancestor-or-self::*[@n][self::tei:div or self::tei:div1 or self::tei:div2 or self::tei:div3
                                  or self::tei:ab or self::tei:lg or self::tei:l or self::tei:seg]">
              <xsl:if test="position() > 1">.</xsl:if>
              <xsl:value-of select="translate(normalize-space(@n), ' ', '_')"/>
            </xsl:for-each>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <xsl:attribute name="id"><xsl:value-of select="concat('passage-', $cite)"/></xsl:attribute>
      <xsl:attribute name="data-cite"><xsl:value-of select="$cite"/></xsl:attribute>
    </xsl:if>
  </xsl:template>

  <!-- What a citation copied from the page names: the edition's short title (else its title) and the siglum of
       its base witness (variantEncoding/@source), if any. -->
  <xsl:template name="citation-data">
    <xsl:variable name="short" select="normalize-space((//tei:titleStmt/tei:title[@type = 'short'])[1])"/>
    <xsl:attribute name="data-cite-title">
      <xsl:choose>
        <xsl:when test="$short != ''"><xsl:value-of select="$short"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$page-title"/></xsl:otherwise>
      </xsl:choose>
    </xsl:attribute>
    <xsl:variable name="source" select="substring-after(normalize-space((//tei:variantEncoding/@source)[1]), '#')"/>
    <xsl:variable name="base" select="//tei:listWit//tei:witness[@xml:id = $source][1]"/>
    <xsl:if test="$source != ''">
      <xsl:attribute name="data-cite-base">
        <xsl:choose>
          <xsl:when test="$base/@n"><xsl:value-of select="$base/@n"/></xsl:when>
          <xsl:otherwise><xsl:value-of select="$source"/></xsl:otherwise>
        </xsl:choose>
      </xsl:attribute>
    </xsl:if>
  </xsl:template>

  <!-- A choice of an edition collated from transcriptions: the form collated (@ana="#collated", written
       first) is shown, as every witness reading there reads it; each other form, with the witnesses that
       write it (@source), is the tooltip. -->
  <xsl:template match="tei:choice[tei:*[contains(concat(' ', @ana, ' '), ' #collated ')]]" mode="text" priority="2">
    <xsl:call-template name="implied-space"/>
    <span class="tei-choice has-collated">
      <xsl:call-template name="text-attributes"/>
      <xsl:attribute name="title">
        <xsl:for-each select="tei:*[not(contains(concat(' ', @ana, ' '), ' #collated '))]">
          <xsl:if test="position() > 1">; </xsl:if>
          <xsl:value-of select="concat(local-name(), ' ', translate(@source, '#', ''), ': ', normalize-space(.))"/>
        </xsl:for-each>
      </xsl:attribute>
      <xsl:apply-templates mode="text"/>
    </span>
  </xsl:template>

  <xsl:template name="text-attributes">
    <xsl:if test="@xml:lang">
      <xsl:attribute name="lang"><xsl:value-of select="@xml:lang"/></xsl:attribute>
      <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="@xml:lang"/></xsl:call-template></xsl:attribute>
    </xsl:if>
    <!-- Preserved whitespace is shown as it is, unless the encoder wrote the spaces as elements (c type="space"):
         then the whitespace between elements is only the layout of the file. -->
    <!-- An element a unit can point to (@from, @to) keeps its id, apart from the page's own ids. -->
    <!-- A lacuna marker (lacunaStart, witEnd, ...): who is inside a lacuna after it, by the reader. -->
    <xsl:if test="@tk:lacking"><xsl:attribute name="data-lacking"><xsl:value-of select="@tk:lacking"/></xsl:attribute></xsl:if>
    <xsl:if test="@xml:id and not(self::tei:app)"><xsl:attribute name="data-xml-id"><xsl:value-of select="@xml:id"/></xsl:attribute></xsl:if>
    <xsl:if test="@xml:space = 'preserve' and not(.//tei:c[@type = 'space'])"><xsl:attribute name="data-space">preserve</xsl:attribute></xsl:if>
  </xsl:template>

  <!-- 'yes' for a unit that is not part of the reading text:
       - a unit placed by location or end points (@loc, @from, @to; double-end-point and location-referenced
         encodings): its lemma is the text it points to, its readings are variants of it;
       - words some witnesses add: a unit without lem in an edition whose units mark their text with lem.
       Elsewhere a unit without lem is a unit without a chosen lemma: its first reading stands in the text. -->
  <xsl:template name="is-addition">
    <xsl:if test="not(key('readings', generate-id())[self::tei:lem]) and not(@tk:transposition)">
      <xsl:choose>
        <xsl:when test="@from or @to or @loc or $encoding-method = 'double-end-point' or $encoding-method = 'location-referenced'">anchored</xsl:when>
        <xsl:when test="$marks-lemmata">yes</xsl:when>
      </xsl:choose>
    </xsl:if>
  </xsl:template>

  <!-- A transposition by reference (the reader's tk:transposition) has no text of its own: an empty mark,
       which its entry links to; the units it moves stand in the text. -->
  <xsl:template match="tei:app[@tk:transposition]" mode="text" priority="3">
    <span class="app transposition" data-n="{substring(@tk:id, 2)}" data-types="transposition">
      <xsl:attribute name="id"><xsl:call-template name="unit-id"/></xsl:attribute>
    </span>
  </xsl:template>

  <!-- The reader's tk:moved (tei/render/entries.py): what a witness reads in a slot of a transposition. -->
  <xsl:key name="moved-into" match="tk:moved" use="@into"/>
  <xsl:key name="reading-by-tk-id" match="*[self::tei:lem or self::tei:rdg]" use="@tk:id"/>  <!-- no union: see "reader" -->

  <xsl:template match="tei:app" mode="text">
    <xsl:variable name="number"><xsl:call-template name="unit-number"/></xsl:variable>
    <xsl:variable name="addition"><xsl:call-template name="is-addition"/></xsl:variable>
    <xsl:call-template name="implied-space"/>
    <span data-n="{$number}">
      <xsl:attribute name="class">app<xsl:choose>
          <xsl:when test="$addition = 'yes'"> addition</xsl:when>
          <xsl:when test="$addition = 'anchored'"> addition anchored</xsl:when>
        </xsl:choose></xsl:attribute>
      <xsl:attribute name="id"><xsl:call-template name="unit-id"/></xsl:attribute>
      <xsl:attribute name="data-types"><xsl:call-template name="unit-types"/></xsl:attribute>
      <!-- The reader's verdicts: who reads each reading (data-wit on it), who is lacunose here. -->
      <xsl:if test="$annotated and @tk:id"><xsl:attribute name="data-lacunose"><xsl:value-of select="@tk:lacunose"/></xsl:attribute></xsl:if>
      <xsl:if test="@tk:lacking"><xsl:attribute name="data-lacking"><xsl:value-of select="@tk:lacking"/></xsl:attribute></xsl:if>
      <xsl:if test="starts-with(@from, '#')"><xsl:attribute name="data-from"><xsl:value-of select="substring(@from, 2)"/></xsl:attribute></xsl:if>
      <xsl:if test="starts-with(@to, '#')"><xsl:attribute name="data-to"><xsl:value-of select="substring(@to, 2)"/></xsl:attribute></xsl:if>
      <!-- A slot of a transposition by reference: what the witnesses whose order moves another unit here
           read there, first (the page shows a witness the first reading that names it). -->
      <xsl:for-each select="key('moved-into', @tk:id)">
        <span class="rdg moved" data-wit="{@wit}">
          <xsl:apply-templates select="key('reading-by-tk-id', @reading)/node()" mode="text"/>
        </span>
      </xsl:for-each>
      <xsl:for-each select="key('readings', generate-id())">
        <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
        <span>
          <xsl:attribute name="class">
            <xsl:text>rdg</xsl:text>
            <xsl:if test="$is-base = 'yes' and $addition = ''"> base shown</xsl:if>
          </xsl:attribute>
          <xsl:choose>
            <xsl:when test="$annotated and @tk:id"><xsl:attribute name="data-wit"><xsl:value-of select="@tk:wit"/></xsl:attribute></xsl:when>
            <xsl:when test="@wit"><xsl:attribute name="data-wit"><xsl:value-of select="normalize-space(@wit)"/></xsl:attribute></xsl:when>
            <xsl:when test="self::tei:lem"><xsl:attribute name="data-implicit">yes</xsl:attribute></xsl:when>
          </xsl:choose>
          <xsl:call-template name="text-attributes"/>
          <xsl:apply-templates mode="text"/>
        </span>
      </xsl:for-each>
    </span>
  </xsl:template>

  <!-- A Qur'an citation: a target for the index of cited verses. -->
  <xsl:template match="tei:ref[@type = 'quran'][@cRef]" mode="text">
    <span class="tei-ref quran" id="cite-{generate-id()}" data-cref="{normalize-space(@cRef)}">
      <xsl:call-template name="text-attributes"/>
      <xsl:apply-templates mode="text"/>
    </span>
  </xsl:template>

  <xsl:template name="emit-quran-entry">
    <xsl:param name="cref"/>
    <li class="verse" data-cref="{$cref}">
      <span class="cref"><xsl:value-of select="$cref"/></span>
      <xsl:for-each select="key('quran-by-cref', $cref)">
        <xsl:text> </xsl:text>
        <a class="citation" href="#cite-{generate-id()}"><bdi><xsl:value-of select="normalize-space(.)"/></bdi></a>
        <xsl:variable name="sigla"><xsl:call-template name="citation-witnesses"/></xsl:variable>
        <xsl:if test="string($sigla) != ''">
          <xsl:text> </xsl:text>
          <span class="sigla"><xsl:call-template name="citation-witnesses"/></span>
        </xsl:if>
      </xsl:for-each>
    </li>
  </xsl:template>

  <!-- ================================================================ the apparatus entries -->

  <xsl:template match="tei:app" mode="entry">
    <xsl:variable name="id"><xsl:call-template name="unit-id"/></xsl:variable>
    <xsl:variable name="number"><xsl:call-template name="unit-number"/></xsl:variable>
    <xsl:variable name="addition"><xsl:call-template name="is-addition"/></xsl:variable>
    <xsl:variable name="unit" select="key('reader', @tk:id)"/>
    <li id="entry-{$id}">
      <xsl:attribute name="class">entry<xsl:if test="$addition != ''"> addition</xsl:if></xsl:attribute>
      <xsl:if test="$edition-dir = 'auto'"><xsl:attribute name="dir">auto</xsl:attribute></xsl:if>
      <a class="unit-ref" href="#{$id}"><xsl:value-of select="$number"/></a>
      <xsl:text> </xsl:text>
      <xsl:choose>
        <xsl:when test="$addition = 'yes' and $unit/@addition-after != ''">
          <!-- Words some witnesses add: keyed to the word before them (in the text of the witnesses without
               them, as the apparatus reader gives it), "word] + added words sigla". -->
          <span class="place"><bdi class="words"><xsl:value-of select="$unit/@addition-after"/></bdi></span>
          <xsl:call-template name="entry-lemma-end"/>
          <span class="addition-mark" title="words some witnesses add after this one, not in the reading text">+</span>
          <xsl:text> </xsl:text>
          <xsl:call-template name="entry-readings"/>
        </xsl:when>
        <xsl:when test="$addition != ''">
          <!-- No lemma: every reading is a variant (words some witnesses add, or readings of a passage the
               unit points to). -->
          <xsl:choose>
            <xsl:when test="$addition = 'anchored'"><span class="addition-mark" title="readings of the passage this unit points to">&#x00B0;</span></xsl:when>
            <xsl:otherwise><span class="addition-mark" title="words some witnesses add, not in the reading text">+</span></xsl:otherwise>
          </xsl:choose>
          <xsl:text> </xsl:text>
          <!-- The witnesses that read the passage as the text gives it (the reader's verdict). -->
          <xsl:for-each select="$unit/tk:base">
            <span class="reading lemma base-text" data-wit="{@wit}"><bdi class="words" dir="ltr">text</bdi><xsl:text> </xsl:text><span class="sigla"><xsl:call-template name="reader-sigla"/></span></span>
            <xsl:call-template name="entry-lemma-end"/>
          </xsl:for-each>
          <xsl:call-template name="entry-readings"/>
        </xsl:when>
        <xsl:otherwise><xsl:call-template name="entry"/></xsl:otherwise>
      </xsl:choose>
      <xsl:for-each select="$unit/tk:lacuna">
        <xsl:call-template name="entry-reading-separator"/>
        <span class="lacunae" data-wit="{@wit}"><bdi class="words">lac.</bdi><xsl:text> </xsl:text><span class="sigla"><xsl:call-template name="reader-sigla"/></span></span>
      </xsl:for-each>
      <xsl:call-template name="transposition-partners"/>
      <xsl:call-template name="entry-remarks"/>
      <xsl:for-each select="tei:witDetail | tei:rdgGrp//tei:witDetail">
        <xsl:if test="normalize-space() != '' or not(@type = 'lac' or @type = 'ambiguous')">
          <xsl:text> </xsl:text>
          <span class="wit-detail" dir="auto">
            <xsl:if test="@type"><xsl:value-of select="concat(@type, ': ')"/></xsl:if>
            <xsl:if test="normalize-space() != ''"><xsl:value-of select="concat(normalize-space(.), ' ')"/></xsl:if>
            <span class="sigla"><xsl:call-template name="wit-sigla"/></span>
          </span>
        </xsl:if>
      </xsl:for-each>
      <xsl:for-each select="(tei:note | tei:rdgGrp/tei:note)[normalize-space()]">
        <xsl:text> </xsl:text>
        <xsl:call-template name="entry-note-span"/>
      </xsl:for-each>
      <xsl:text> </xsl:text>
      <a class="permalink" href="#{$id}" aria-label="Permalink to unit {$number}">¶</a>
    </li>
  </xsl:template>

  <xsl:template name="entry-readings">
    <xsl:for-each select="key('readings', generate-id())">
      <xsl:if test="position() > 1"><xsl:call-template name="entry-reading-separator"/></xsl:if>
      <xsl:call-template name="entry-reading"/>
    </xsl:for-each>
  </xsl:template>

  <!-- [app|lem|rdg] Who is responsible (@resp) and why the reading came about (@cause). -->
  <xsl:template name="entry-remarks">
    <xsl:if test="@resp and not(self::tei:lem and not(@wit))">
      <xsl:text> </xsl:text>
      <span class="resp">resp. <xsl:call-template name="responsible"/></span>
    </xsl:if>
    <xsl:if test="@cause">
      <xsl:text> </xsl:text>
      <span class="cause">(<xsl:value-of select="normalize-space(@cause)"/>)</span>
    </xsl:if>
  </xsl:template>

  <!-- @resp as printed: each pointer without '#', the text of what it points to as a tooltip. -->
  <xsl:template name="responsible">
    <xsl:variable name="ids" select="normalize-space(translate(@resp, '#', ' '))"/>
    <xsl:variable name="target" select="//*[@xml:id = substring-before(concat($ids, ' '), ' ')]"/>
    <bdi class="responsible">
      <xsl:if test="$target"><xsl:attribute name="title"><xsl:value-of select="normalize-space($target[1])"/></xsl:attribute></xsl:if>
      <xsl:value-of select="$ids"/>
    </bdi>
  </xsl:template>

  <!-- Between two readings: an element, so that the script can drop a separator whose reading is hidden. -->
  <xsl:template name="entry-reading-separator">
    <span class="sep">; </span>
  </xsl:template>

  <!-- [note] A note of an entry in its own language: written with xml:lang (an English note in an Arabic
       edition), its lang and its direction from that language (text-direction), so that it reads in its
       own direction whatever the apparatus around it; without, the browser's guess (dir="auto"). -->
  <xsl:template name="entry-note-span">
    <span class="entry-note">
      <xsl:choose>
        <xsl:when test="normalize-space(@xml:lang) != ''">
          <xsl:attribute name="lang"><xsl:value-of select="normalize-space(@xml:lang)"/></xsl:attribute>
          <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="normalize-space(@xml:lang)"/></xsl:call-template></xsl:attribute>
        </xsl:when>
        <xsl:otherwise><xsl:attribute name="dir">auto</xsl:attribute></xsl:otherwise>
      </xsl:choose>
      <xsl:value-of select="normalize-space(.)"/>
    </span>
  </xsl:template>

  <xsl:template name="entry-lemma-end">
    <span class="lemma-end">] </span>
  </xsl:template>

  <xsl:template name="entry-reading">
    <xsl:variable name="type"><xsl:call-template name="reading-type"/></xsl:variable>
    <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
    <span>
      <xsl:if test="$type != ''"><xsl:attribute name="data-type"><xsl:value-of select="$type"/></xsl:attribute></xsl:if>
      <xsl:if test="$annotated and @tk:id"><xsl:attribute name="data-wit"><xsl:value-of select="@tk:wit"/></xsl:attribute></xsl:if>
      <xsl:attribute name="class">
        <xsl:text>reading</xsl:text>
        <xsl:if test="$is-base = 'yes'"> lemma</xsl:if>
      </xsl:attribute>
      <bdi class="words">
        <xsl:call-template name="text-attributes"/>
        <xsl:choose>
          <!-- A transposition by reference: the base texts of the units it moves, in its order. -->
          <xsl:when test="@tk:transposed"><xsl:value-of select="@tk:transposed"/></xsl:when>
          <xsl:when test="not(*) and string(.) = ''"><span class="empty"><xsl:call-template name="empty-reading"/></span></xsl:when>
          <xsl:otherwise><xsl:apply-templates mode="reading-content"/></xsl:otherwise>
        </xsl:choose>
      </bdi>
      <xsl:text> </xsl:text>
      <span class="sigla"><xsl:call-template name="sigla"/></span>
      <!-- The editor's conjecture: a lem without @wit that someone is responsible for. -->
      <xsl:if test="self::tei:lem and @resp and not(@wit)">
        <xsl:text> </xsl:text>
        <span class="conjecture">conj. <xsl:call-template name="responsible"/></span>
      </xsl:if>
      <xsl:if test="$type != ''">
        <xsl:text> </xsl:text>
        <bdi class="type" dir="ltr"><xsl:value-of select="$type"/></bdi>
      </xsl:if>
      <xsl:call-template name="entry-remarks"/>
      <xsl:for-each select="tei:note[normalize-space()]">
        <xsl:text> </xsl:text>
        <xsl:call-template name="entry-note-span"/>
      </xsl:for-each>
    </span>
  </xsl:template>

  <!-- In an entry too, a choice shows one reading (as in the text). -->
  <xsl:template match="tei:choice/tei:reg | tei:choice/tei:corr | tei:choice/tei:expan | tei:w[tei:orig]/tei:reg"
      mode="reading-content"/>

  <!-- In an entry too, words in <w> are separated as TEI implies. -->
  <xsl:template match="tei:w | tei:app" mode="reading-content">
    <xsl:call-template name="implied-space"/>
    <xsl:apply-imports/>
  </xsl:template>

  <xsl:template match="*[@xml:lang][not(key('no-witness-text', generate-id()))]" mode="reading-content">
    <bdi lang="{@xml:lang}">
      <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="@xml:lang"/></xsl:call-template></xsl:attribute>
      <xsl:apply-templates mode="reading-content"/>
    </bdi>
  </xsl:template>

  <xsl:template name="emit-transposition-partner">
    <xsl:variable name="number"><xsl:call-template name="unit-number"/></xsl:variable>
    <xsl:text> </xsl:text>
    <a class="transposed">
      <xsl:attribute name="href">#<xsl:call-template name="unit-id"/></xsl:attribute>
      <xsl:value-of select="concat('transposed with ', $number)"/>
    </a>
  </xsl:template>

  <xsl:template name="emit-siglum">
    <xsl:param name="siglum"/>
    <xsl:param name="token"/>
    <!-- Each siglum isolated: an Arabic or Hebrew siglum cannot reorder its neighbours, nor a Latin one the
         readings of a right-to-left entry. -->
    <bdi class="siglum">
      <!-- The witnesses the siglum stands for, as the apparatus reader gives them (a group, a range). -->
      <xsl:if test="$annotated"><xsl:attribute name="data-ids"><xsl:value-of select="$token"/></xsl:attribute></xsl:if>
      <xsl:value-of select="$siglum"/>
    </bdi>
  </xsl:template>

  <xsl:template name="emit-warning">
    <xsl:param name="code"/>
    <xsl:param name="message"/>
    <li class="warning" data-code="{$code}"><xsl:value-of select="concat('[', $code, '] ', $message)"/></li>
  </xsl:template>

  <!-- ================================================================ mode conspectus -->

  <xsl:template match="tei:witness" mode="conspectus">
    <xsl:variable name="id"><xsl:call-template name="witness-id"/></xsl:variable>
    <dt id="witness-{$id}">
      <xsl:call-template name="siglum"><xsl:with-param name="token" select="$id"/></xsl:call-template>
    </dt>
    <!-- The description, its reference numbers (labelled) and its notes, each in its own direction: an English
         description of an Arabic witness runs left to right, a note in the direction of its xml:lang. -->
    <dd>
      <xsl:variable name="description"><xsl:call-template name="conspectus-description"/></xsl:variable>
      <span class="description">
        <xsl:attribute name="dir"><xsl:call-template name="conspectus-direction"><xsl:with-param name="text" select="$description"/></xsl:call-template></xsl:attribute>
        <xsl:value-of select="$description"/>
      </span>
      <xsl:for-each select="tei:idno">
        <xsl:text> </xsl:text>
        <span class="reference" dir="ltr">(<xsl:apply-templates select="." mode="conspectus-reference"/>)</span>
      </xsl:for-each>
      <xsl:for-each select="tei:note">
        <xsl:text> </xsl:text>
        <span class="note">
          <xsl:if test="@xml:lang">
            <xsl:attribute name="lang"><xsl:value-of select="@xml:lang"/></xsl:attribute>
            <xsl:attribute name="dir"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="@xml:lang"/></xsl:call-template></xsl:attribute>
          </xsl:if>
          <xsl:value-of select="normalize-space(.)"/>
        </span>
      </xsl:for-each>
      <xsl:for-each select="tei:ptr[@type = 'transcription']">
        <xsl:text> </xsl:text>
        <a class="transcription" href="{$edition-base}{@target}">transcription</a>
      </xsl:for-each>
    </dd>
  </xsl:template>

</xsl:stylesheet>
