<?xml version="1.0" encoding="UTF-8"?>
<!--
  The print apparatus every print format shares (Typst and LaTeX): which series a reading goes to,
  the lemma as the apparatus shows it, and one entry per unit and series ("lemma] reading sigla; ...").
  XSLT 1.0. Import it after apparatus.xsl; format layers override the hooks of apparatus.xsl
  (emit-text, emit-siglum, ...) to escape text for their target language.

  Parameters (space-separated reading types, the vocabulary of docs/edition-format.md):
    series-b-types  the types printed in the second series (default: the non-substantive ones);
                    every other type, untyped readings and types a hand-edited file invents go to series a
    hidden-types    the types not printed at all (default: none)
    lemma-words     a lemma of more words is printed 'first … last' (default: 4)
    lemma-sigla     when the lemma's sigla are printed after it: 'eclectic' (default: when the base witness
                    of variantEncoding/@source does not read it, an editor's choice), 'always' (a positive
                    apparatus), 'never'
    majority        '' (default) or the word printed instead of the sigla of a reading that more than half
                    of the witnesses read ('rell.', 'cett.'): a positive apparatus of many witnesses then
                    lists only the minority readings' sigla
    reading-types   'yes': each reading's type in brackets after its sigla (default: 'no')

  Sigla, an addition's anchor word: the apparatus reader's (tei/render/entries.py) when the edition comes
  annotated (groups, hands, ranges, who reads a lem without @wit), else from @wit as apparatus.xsl reads it.

  Variables: $title, $title-statements (author, editor, edition and publication statements)

  Named templates (context node in brackets):
    series-of          (type)  'a', 'b' or 'hidden'
    reading-series     [rdg]   the series of a variant reading, from its reading type
    series-readings    [app] (series)  the variant readings of the app in that series, as the entry shows
                               them: text (or the empty-reading hook), a space and the sigla, separated
                               by the hook entry-reading-separator
    has-series         [app] (series)  'yes' when at least one variant reading is in that series
    base-reading       [app]   the generate-id() of the reading the text prints (is-base-reading)
    reading-text       [lem|rdg]  hook: a non-empty reading's text (a layer isolates its direction)
    lemma-label        [app]   the lemma as the apparatus shows it (of a transposition by reference, the
                               reader's tk:transposition): the base reading, shortened to
                               'first … last' word past lemma-words words; an empty base reading
                               (an addition) shows the word before the unit (the reader's
                               addition-after, else templates word-before and word-after)
    lemma-remarks      [app]   after the lemma: its sigla (parameter lemma-sigla), 'conj.' and who is
                               responsible for a conjecture (lem with @resp and no @wit), @resp, @cause
    entry-note         [note]  a note of the unit in brackets; with xml:lang, through the hook
                               note-in-language (direction) that sets it in that language's direction
    reading-sigla      [lem|rdg]  its sigla, or the parameter majority for a reading of the majority
    reading-remarks    [lem|rdg]  ' resp. X' for @resp, ' (cause)' for @cause
    mode base-text             the plain text of a base reading (nested units give their base reading)
    mode body                  the printed text: what carries no text, lb, gap, g, w and text nodes;
                               the layers add blocks, units and languages
    last-word          (text)  the last word of a text
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:tk="urn:x-tei-toolkit:render"
    exclude-result-prefixes="tei tk">

  <!-- The units by the reader's tk:id ("u3"): a transposition by reference named by tk:transposed-by. -->
  <xsl:key name="unit-by-tk-id" match="tei:app" use="@tk:id"/>

  <xsl:param name="series-b-types" select="'orthographic honorific particle punctuation whitespace'"/>
  <xsl:param name="hidden-types" select="''"/>
  <xsl:param name="lemma-words" select="'4'"/>
  <!-- 'yes': each reading's type is printed after its sigla, in brackets (for proofreading a collation). -->
  <xsl:param name="reading-types" select="'no'"/>
  <!-- When the lemma's sigla are printed: 'eclectic' (the base witness does not read it), 'always', 'never'. -->
  <xsl:param name="lemma-sigla" select="'eclectic'"/>
  <!-- Marks of direction without a glyph (LRM, RLM, ALM, the isolates and embeddings): a lemma made only of
       them (a collation of Arabic text keeps an RLM of the source as a token) is empty, an addition. -->
  <xsl:variable name="bidi-marks" select="'&#x200E;&#x200F;&#x061C;&#x2066;&#x2067;&#x2068;&#x2069;&#x202A;&#x202B;&#x202C;&#x202D;&#x202E;'"/>
  <!-- '' or the word printed instead of the sigla of a reading most witnesses read ('rell.', 'cett.'). -->
  <xsl:param name="majority" select="''"/>
  <!-- Where the entries of a unit typed 'paraphrase' are printed (the clause a loose rendering, such as
       the seeds' D, gives for the close witnesses' text: docs/collation.md): 'end', a series of their
       own after the text (series c), keyed to the line numbers; 'a', in the first series. -->
  <xsl:param name="paraphrase-series" select="'end'" tk:values="end a"/>
  <!-- One entry for each unit ('units'), or for each place of variation ('places': adjacent units with
       nothing but space between them, as one lemma phrase and each witness's words there;
       tei.apparatus.places). Read by tei/render/pdf.py, which gives these stylesheets the merged units. -->
  <xsl:param name="entries" select="'units'" tk:values="units places"/>

  <!-- The base witness (variantEncoding/@source), whose reading the lemma is unless the editor chose another. -->
  <xsl:variable name="base-witness" select="normalize-space(translate((//tei:encodingDesc/tei:variantEncoding/@source)[1], '#', ' '))"/>
  <xsl:variable name="witness-count">
    <xsl:choose>
      <xsl:when test="$annotated"><xsl:value-of select="count(/*/tk:apparatus/tk:witness[@kind = 'declared'])"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="count($witnesses)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- The title page: the title, and the statements printed under it. -->
  <xsl:variable name="title" select="normalize-space((//tei:teiHeader//tei:titleStmt/tei:title)[1])"/>
  <xsl:variable name="file-description" select="/tei:TEI/tei:teiHeader/tei:fileDesc"/>
  <xsl:variable name="title-statements"
      select="$file-description/tei:titleStmt/tei:author | $file-description/tei:titleStmt/tei:editor
              | $file-description/tei:editionStmt//tei:p | $file-description/tei:editionStmt/tei:edition
              | $file-description/tei:publicationStmt/tei:p | $file-description/tei:publicationStmt/tei:publisher
              | $file-description/tei:publicationStmt/tei:date"/>

  <!-- The title as a running head: one line, so cut at a word before 40 characters (then '…'). -->
  <xsl:template name="short-title">
    <xsl:param name="text" select="$title"/>
    <xsl:choose>
      <xsl:when test="string-length($text) &lt;= 40"><xsl:value-of select="$text"/></xsl:when>
      <xsl:otherwise>
        <xsl:variable name="cut" select="substring($text, 1, 40)"/>
        <xsl:variable name="last"><xsl:call-template name="last-word"><xsl:with-param name="text" select="$cut"/></xsl:call-template></xsl:variable>
        <xsl:value-of select="concat(normalize-space(substring($cut, 1, string-length($cut) - string-length($last))), ' …')"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="series-of">
    <xsl:param name="type"/>
    <xsl:variable name="padded" select="concat(' ', $type, ' ')"/>
    <xsl:choose>
      <xsl:when test="$type != '' and contains(concat(' ', normalize-space($hidden-types), ' '), $padded)">hidden</xsl:when>
      <xsl:when test="$type != '' and contains(concat(' ', normalize-space($series-b-types), ' '), $padded)">b</xsl:when>
      <xsl:otherwise>a</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="reading-series">
    <xsl:variable name="series">
      <xsl:call-template name="series-of">
        <xsl:with-param name="type"><xsl:call-template name="reading-type"/></xsl:with-param>
      </xsl:call-template>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$series != 'hidden' and $paraphrase-series = 'end' and ancestor::tei:app[1]/@type = 'paraphrase'">c</xsl:when>
      <xsl:otherwise><xsl:value-of select="$series"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- [app] 'yes' when the base reading has no text: the variant readings are additions. A transposition
       by reference (the reader's tk:transposition) is none. -->
  <xsl:template name="is-addition">
    <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
    <xsl:variable name="base" select="(tei:lem | tei:rdg | tei:rdgGrp//tei:lem | tei:rdgGrp//tei:rdg)[generate-id() = $base-id]"/>
    <xsl:choose>
      <xsl:when test="@tk:transposition"/>
      <xsl:when test="normalize-space(translate(string($base), $bidi-marks, '')) = ''">yes</xsl:when>
      <!-- Text with nothing that base-text leaves out: not empty (no need to rebuild it). -->
      <xsl:when test="not($base//tei:app or $base//tei:note or $base//tei:wit or $base//tei:witDetail)"/>
      <xsl:otherwise>
        <xsl:variable name="base-text"><xsl:apply-templates select="$base/node()" mode="base-text"/></xsl:variable>
        <xsl:if test="normalize-space(translate($base-text, $bidi-marks, '')) = ''">yes</xsl:if>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- [app] The variant readings of every series, once for the unit: 'generate-id:series ' for each (the
       templates below take it as the parameter variants, so that a unit's readings are sorted once, not
       once for each question asked of them); in an addition (empty base reading) an empty reading agrees
       with the base text and is no variant. -->
  <xsl:template name="variant-readings">
    <xsl:param name="addition"><xsl:call-template name="is-addition"/></xsl:param>
    <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
    <xsl:text> </xsl:text>
    <xsl:for-each select="tei:rdg | tei:rdgGrp/tei:rdg | tei:rdgGrp/tei:rdgGrp/tei:rdg">
      <xsl:if test="generate-id() != $base-id and not($addition = 'yes' and not(*) and normalize-space(.) = '')">
        <xsl:variable name="in"><xsl:call-template name="reading-series"/></xsl:variable>
        <xsl:value-of select="concat(generate-id(), ':', $in, ' ')"/>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <!-- The variant readings of one series, as 'generate-id ' each. -->
  <xsl:template name="variant-readings-in">
    <xsl:param name="series"/>
    <xsl:param name="variants"><xsl:call-template name="variant-readings"/></xsl:param>
    <xsl:for-each select="tei:rdg | tei:rdgGrp/tei:rdg | tei:rdgGrp/tei:rdgGrp/tei:rdg">
      <xsl:if test="contains($variants, concat(' ', generate-id(), ':', $series, ' '))">
        <xsl:value-of select="concat(generate-id(), ' ')"/>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="has-series">
    <xsl:param name="series"/>
    <xsl:param name="variants"><xsl:call-template name="variant-readings"/></xsl:param>
    <xsl:if test="contains($variants, concat(':', $series, ' '))">yes</xsl:if>
  </xsl:template>

  <xsl:template name="series-readings">
    <xsl:param name="series"/>
    <xsl:param name="addition"><xsl:call-template name="is-addition"/></xsl:param>
    <xsl:param name="variants"><xsl:call-template name="variant-readings"><xsl:with-param name="addition" select="$addition"/></xsl:call-template></xsl:param>
    <xsl:for-each select="(tei:rdg | tei:rdgGrp/tei:rdg | tei:rdgGrp/tei:rdgGrp/tei:rdg)[contains($variants, concat(' ', generate-id(), ':', $series, ' '))]">
      <xsl:if test="position() != 1"><xsl:call-template name="entry-reading-separator"/></xsl:if>
      <xsl:call-template name="print-reading"><xsl:with-param name="addition" select="$addition"/></xsl:call-template>
    </xsl:for-each>
    <!-- The notes of the unit (note in app, lem or rdg), once: after the first series the unit has. -->
    <xsl:variable name="first-series">
      <xsl:choose>
        <xsl:when test="$series = 'b'">
          <xsl:if test="not(contains($variants, ':a '))">yes</xsl:if>
        </xsl:when>
        <xsl:otherwise>yes</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:if test="$first-series = 'yes'">
      <xsl:for-each select="tei:note | tei:lem/tei:note | tei:rdg/tei:note | tei:rdgGrp//tei:note">
        <xsl:if test="normalize-space(.) != ''">
          <xsl:call-template name="entry-note"/>
        </xsl:if>
      </xsl:for-each>
      <!-- What the witnesses show besides their text (witDetail): its type, its words, its sigla. -->
      <xsl:for-each select="tei:witDetail | tei:rdgGrp//tei:witDetail">
        <xsl:if test="normalize-space(.) != '' or @type">
          <xsl:call-template name="emit-text">
            <xsl:with-param name="text" select="concat(' (', substring(concat(@type, ': '), 1, (string-length(@type) + 2) * number(boolean(@type))), normalize-space(.), substring(' ', 1, number(normalize-space(.) != '')))"/>
          </xsl:call-template>
          <xsl:call-template name="wit-sigla"/>
          <xsl:call-template name="emit-text"><xsl:with-param name="text" select="')'"/></xsl:call-template>
        </xsl:if>
      </xsl:for-each>
    </xsl:if>
  </xsl:template>

  <!-- [app] After the lemma: its sigla when the parameter lemma-sigla asks for them, 'conj.' and the
       responsible for a conjecture (a lem without @wit that someone is responsible for), @resp, @cause. -->
  <xsl:template name="lemma-remarks">
    <xsl:for-each select="key('readings', generate-id())[self::tei:lem][1]">
      <xsl:choose>
        <xsl:when test="@resp and not(@wit)">
          <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' conj. ', normalize-space(translate(@resp, '#', ' ')))"/></xsl:call-template>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="ids"><xsl:call-template name="reading-ids"/></xsl:variable>
          <xsl:if test="normalize-space($ids) != '' and ($lemma-sigla = 'always' or $lemma-sigla = 'eclectic' and $base-witness != ''
                        and not(contains(concat(' ', normalize-space($ids), ' '), concat(' ', $base-witness, ' '))))">
            <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
            <xsl:call-template name="reading-sigla"/>
          </xsl:if>
          <xsl:call-template name="reading-remarks"/>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="@resp and not(@wit) and @cause">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' (', normalize-space(@cause), ')')"/></xsl:call-template>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <!-- [lem|rdg] The ids of the witnesses that read it as the entry prints it: the reader's (those its sigla
       name: of a reading holding units, only the witnesses whose text there is the printed words), else
       @wit, else (a lem without @wit) the declared witnesses no reading of the unit names. -->
  <xsl:template name="reading-ids">
    <xsl:choose>
      <xsl:when test="$annotated and @tk:id"><xsl:value-of select="key('reader', @tk:id)/@wit"/></xsl:when>
      <xsl:when test="@wit"><xsl:value-of select="translate(@wit, '#', ' ')"/></xsl:when>
      <xsl:when test="self::tei:lem">
        <xsl:variable name="implicit"><xsl:call-template name="implicit-witnesses"/></xsl:variable>
        <xsl:value-of select="translate($implicit, '#', ' ')"/>
      </xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- [lem|rdg] Its sigla; the word of the parameter majority instead when more than half of the
       witnesses read it. -->
  <xsl:template name="reading-sigla">
    <xsl:choose>
      <xsl:when test="$majority != ''">
        <xsl:variable name="found"><xsl:call-template name="reading-ids"/></xsl:variable>
        <xsl:variable name="list" select="normalize-space($found)"/>
        <xsl:variable name="count" select="string-length($list) - string-length(translate($list, ' ', '')) + number($list != '')"/>
        <xsl:choose>
          <xsl:when test="$count * 2 &gt; number($witness-count) and number($witness-count) &gt; 2">
            <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$majority"/></xsl:call-template>
          </xsl:when>
          <xsl:otherwise><xsl:call-template name="sigla"/></xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise><xsl:call-template name="sigla"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- [lem|rdg] Who is responsible for the reading (@resp) and why it came about (@cause). -->
  <xsl:template name="reading-remarks">
    <xsl:if test="@resp">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' resp. ', normalize-space(translate(@resp, '#', ' ')))"/></xsl:call-template>
    </xsl:if>
    <xsl:if test="@cause">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' (', normalize-space(@cause), ')')"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- A note of the unit, after its readings, in brackets. Written with xml:lang (an English note in an
       Arabic edition), its words go to the layer's note-in-language with the direction of that language
       (text-direction), so that they are set in their own direction and fonts inside the apparatus. -->
  <xsl:template name="entry-note">
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' ('"/></xsl:call-template>
    <xsl:choose>
      <xsl:when test="normalize-space(@xml:lang) != ''">
        <xsl:call-template name="note-in-language">
          <xsl:with-param name="direction"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="normalize-space(@xml:lang)"/></xsl:call-template></xsl:with-param>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="')'"/></xsl:call-template>
  </xsl:template>

  <!-- Hook [note] (direction): a note's words in its language (xml:lang) and that direction. -->
  <xsl:template name="note-in-language">
    <xsl:param name="direction"/>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
  </xsl:template>

  <!-- One reading of an entry: its text (or 'om.'; in an addition, the text and 'add.'), a space, its
       sigla; its type in brackets when the parameter reading-types is 'yes'. -->
  <xsl:template name="print-reading">
    <xsl:param name="addition" select="'no'"/>
    <xsl:choose>
      <xsl:when test="not(*) and normalize-space(.) = ''"><xsl:call-template name="empty-reading"/></xsl:when>
      <xsl:otherwise><xsl:call-template name="trimmed-reading-text"/></xsl:otherwise>
    </xsl:choose>
    <xsl:if test="$addition = 'yes' and (* or normalize-space(.) != '')">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
      <xsl:call-template name="addition-label"/>
    </xsl:if>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
    <xsl:call-template name="reading-sigla"/>
    <xsl:call-template name="reading-remarks"/>
    <xsl:if test="$reading-types = 'yes'">
      <xsl:variable name="type"><xsl:call-template name="reading-type"/></xsl:variable>
      <xsl:if test="$type != ''">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' [', $type, ']')"/></xsl:call-template>
      </xsl:if>
    </xsl:if>
  </xsl:template>

  <!-- Hook: the word that marks an addition. -->
  <xsl:template name="addition-label">
    <xsl:call-template name="emit-text">
      <xsl:with-param name="text"><xsl:call-template name="apparatus-term"><xsl:with-param name="name" select="'addition'"/></xsl:call-template></xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <!-- A reading's text without the spaces around it (a reading of plain text is normalised; one with
       elements goes through the hook reading-text). -->
  <xsl:template name="trimmed-reading-text">
    <xsl:choose>
      <!-- A transposition by reference: the base texts of the units it moves, in its order (the reader's). -->
      <xsl:when test="@tk:transposed">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="string(@tk:transposed)"/></xsl:call-template>
      </xsl:when>
      <xsl:when test="not(*)">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:call-template name="reading-text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Hook: the text of a non-empty reading (a format wraps it, for example to isolate its direction). -->
  <xsl:template name="reading-text">
    <xsl:apply-templates mode="reading-content"/>
  </xsl:template>

  <!-- [app] The rule of is-base-reading (apparatus.xsl: the first lem, else the first reading), read once
       for the unit instead of once for each of its readings. -->
  <xsl:template name="base-reading">
    <xsl:variable name="readings" select="key('readings', generate-id())"/>
    <xsl:value-of select="generate-id($readings[self::tei:lem][1] | $readings[1][not($readings[self::tei:lem])])"/>
  </xsl:template>

  <!-- [app] Its number: the apparatus reader's (tk:id "u<n>", counted as xsl:number counts) when the
       edition comes annotated; counting the units before it for each unit made the print quadratic. -->
  <xsl:template name="unit-number">
    <xsl:choose>
      <xsl:when test="@tk:id"><xsl:value-of select="substring(@tk:id, 2)"/></xsl:when>
      <xsl:otherwise><xsl:number level="any" count="tei:app"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="lemma-label">
    <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
    <xsl:variable name="base" select="(tei:lem | tei:rdg | tei:rdgGrp//tei:lem | tei:rdgGrp//tei:rdg)[generate-id() = $base-id]"/>
    <xsl:variable name="base-text">
      <xsl:choose>
        <!-- A transposition by reference: the base texts of the units it moves, in document order. -->
        <xsl:when test="@tk:transposition"><xsl:value-of select="@tk:transposition"/></xsl:when>
        <xsl:otherwise><xsl:apply-templates select="$base/node()" mode="base-text"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="words" select="normalize-space(translate($base-text, $bidi-marks, ''))"/>
    <xsl:choose>
      <xsl:when test="$words = '' and $annotated and key('reader', @tk:id)/@addition-after != ''">
        <!-- The apparatus reader's word before the addition (in the text of the witnesses without it). -->
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="key('reader', @tk:id)/@addition-after"/></xsl:call-template>
      </xsl:when>
      <xsl:when test="$words = ''">
        <xsl:variable name="before"><xsl:call-template name="word-before"/></xsl:variable>
        <xsl:call-template name="emit-text">
          <xsl:with-param name="text">
            <xsl:choose>
              <xsl:when test="$before != ''"><xsl:value-of select="$before"/></xsl:when>
              <xsl:otherwise><xsl:call-template name="word-after"/></xsl:otherwise>
            </xsl:choose>
          </xsl:with-param>
        </xsl:call-template>
      </xsl:when>
      <xsl:when test="string-length($words) - string-length(translate($words, ' ', '')) &gt;= number($lemma-words)">
        <xsl:call-template name="emit-text">
          <xsl:with-param name="text" select="substring-before($words, ' ')"/>
        </xsl:call-template>
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' … '"/></xsl:call-template>
        <xsl:call-template name="emit-text">
          <xsl:with-param name="text"><xsl:call-template name="last-word"><xsl:with-param name="text" select="$words"/></xsl:call-template></xsl:with-param>
        </xsl:call-template>
      </xsl:when>
      <xsl:when test="@tk:transposition">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$words"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each select="$base">
          <xsl:call-template name="trimmed-reading-text"/>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- [app] The last word of the base text before the unit; at the start of a reading, the word before
       the enclosing unit. The siblings are read from the nearest back, only until one has text (reading
       them all made a long paragraph of additions quadratic). -->
  <xsl:template name="word-before">
    <xsl:param name="n" select="1"/>
    <xsl:param name="after" select="''"/>
    <xsl:variable name="node" select="preceding-sibling::node()[$n]"/>
    <xsl:variable name="own"><xsl:apply-templates select="$node" mode="base-text"/></xsl:variable>
    <xsl:variable name="text" select="concat($own, $after)"/>
    <xsl:variable name="words" select="normalize-space($text)"/>
    <!-- The last word is whole once a space stands before it (a text node "." after a unit is only the
         end of the word "Qibla."). -->
    <xsl:variable name="whole" select="contains($words, ' ') or ($words != '' and translate(substring($text, 1, 1), '&#9;&#10;&#13;', '   ') = ' ')"/>
    <xsl:choose>
      <xsl:when test="$whole">
        <xsl:call-template name="last-word"><xsl:with-param name="text" select="$words"/></xsl:call-template>
      </xsl:when>
      <xsl:when test="$node">
        <xsl:call-template name="word-before">
          <xsl:with-param name="n" select="$n + 1"/>
          <xsl:with-param name="after" select="$text"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:when test="$words != ''">
        <!-- The start of a block or of a reading is the start of a word. -->
        <xsl:call-template name="last-word"><xsl:with-param name="text" select="$words"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each select="ancestor::tei:app[1]"><xsl:call-template name="word-before"/></xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- [app] The first word of the base text after the unit (or after the enclosing unit). -->
  <xsl:template name="word-after">
    <xsl:param name="n" select="1"/>
    <xsl:variable name="node" select="following-sibling::node()[$n]"/>
    <xsl:variable name="text"><xsl:apply-templates select="$node" mode="base-text"/></xsl:variable>
    <xsl:choose>
      <xsl:when test="normalize-space($text) != ''">
        <xsl:value-of select="substring-before(concat(normalize-space($text), ' '), ' ')"/>
      </xsl:when>
      <xsl:when test="$node">
        <xsl:call-template name="word-after"><xsl:with-param name="n" select="$n + 1"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each select="ancestor::tei:app[1]"><xsl:call-template name="word-after"/></xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The plain text of a base reading: nested units give their own base reading. -->
  <xsl:template match="tei:app" mode="base-text">
    <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
    <xsl:apply-templates select="(tei:lem | tei:rdg | tei:rdgGrp//tei:lem | tei:rdgGrp//tei:rdg)[generate-id() = $base-id]/node()" mode="base-text"/>
  </xsl:template>

  <xsl:template match="tei:note | tei:wit | tei:witDetail | comment() | processing-instruction()" mode="base-text"/>

  <!-- A word given as orig and reg side by side (without choice, as Konrad's edition writes it) is
       printed once, regularised, as inside a choice. -->
  <xsl:template match="tei:orig[../tei:reg] | tei:sic[../tei:corr] | tei:abbr[../tei:expan]" mode="base-text"/>
  <xsl:template match="tei:orig[../tei:reg] | tei:sic[../tei:corr] | tei:abbr[../tei:expan]" mode="body"/>
  <xsl:template match="tei:orig[../tei:reg] | tei:sic[../tei:corr] | tei:abbr[../tei:expan]" mode="reading-content"/>

  <xsl:template match="tei:w" mode="base-text">
    <xsl:apply-templates mode="base-text"/>
    <xsl:if test="following-sibling::node()[1][self::tei:w]"><xsl:text> </xsl:text></xsl:if>
  </xsl:template>

  <!-- Sigla, groups, hands and ranges ("Q1–4") are the apparatus reader's (tei/render/entries.py: tk:s on
       the annotated copy, printed by the sigla template of apparatus.xsl): one rule, one place. -->

  <!-- ================================================================ mode body: the printed text

       The base text as the print layers show it; each layer adds the blocks (ab, p, l, head), the units
       (app) and languages, and escapes text through the hooks emit-text and emit-character. -->

  <!-- What the printed text leaves out (a note is printed in its unit's entry; of a choice, the form the
       text shows; in an edition collated from transcriptions, every form but the one @ana="#collated"), by generate-id(): the layers' template for a run in another language (*[@xml:lang])
       excludes these by this key, so that an English note in an Arabic heading (BAlam52) stays out of the
       heading; their own templates come first, so the list is here once. -->
  <xsl:key name="printed-silently" use="generate-id()"
      match="tei:note | tei:wit | tei:witDetail | tei:listTranspose | tei:pb | tei:cb | tei:milestone
             | tei:fw | tei:sic[parent::tei:choice[not(tei:*[contains(@ana, '#collated')])]]
             | tei:orig[parent::tei:choice[not(tei:*[contains(@ana, '#collated')])]]
             | tei:abbr[parent::tei:choice[not(tei:*[contains(@ana, '#collated')])]]
             | tei:*[parent::tei:choice[tei:*[contains(@ana, '#collated')]]][not(contains(@ana, '#collated'))]
             | comment() | processing-instruction()"/>

  <xsl:template match="node()[key('printed-silently', generate-id())]" mode="body"/>

  <xsl:template match="tei:lb" mode="body">
    <xsl:if test="not(@break = 'no')"><xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template></xsl:if>
  </xsl:template>

  <xsl:template match="tei:gap" mode="body">
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="'[…]'"/></xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:g[@type = 'char' and starts-with(@n, 'U+')]" mode="body">
    <xsl:call-template name="emit-character"><xsl:with-param name="code" select="substring(@n, 3)"/></xsl:call-template>
  </xsl:template>

  <!-- Text in an element-only parent is layout, except between two units or words given straight in it
       (teiphy and open-cbgm put every unit in body), milestones and page breaks aside: there it parts
       their words. -->
  <xsl:template match="text()" mode="body">
    <xsl:choose>
      <xsl:when test="not(namespace-uri(..) = 'http://www.tei-c.org/ns/1.0' and contains($element-only, concat(' ', local-name(..), ' ')))">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="."/></xsl:call-template>
      </xsl:when>
      <xsl:when test="preceding-sibling::*[not(self::tei:milestone or self::tei:pb or self::tei:cb or self::tei:anchor)][1][self::tei:app or self::tei:w]
                      and following-sibling::*[not(self::tei:milestone or self::tei:pb or self::tei:cb or self::tei:anchor)][1][self::tei:app or self::tei:w]">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
      </xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- Words encoded as w elements with nothing between them (teiphy, open-cbgm) are printed apart, and so
       is a word from a unit right after it, or after the unit whose lemma it ends (Obadiah's
       `<w>אָמַר</w><app><lem><w>אֲדֹנַי</w></lem>…</app><app>…` ran together): a w is a token, as the
       apparatus reader takes it. Both engines collapse the spaces that meet. -->
  <xsl:template match="tei:w" mode="body">
    <xsl:apply-templates mode="body"/>
    <xsl:call-template name="space-after-word"/>
  </xsl:template>

  <!-- [w] The space that parts a word from the next word or unit (see above). -->
  <xsl:template name="space-after-word">
    <xsl:if test="following-sibling::node()[1][self::tei:w or self::tei:app]
                  or (not(following-sibling::node()) and parent::tei:lem
                      and ../../following-sibling::node()[1][self::tei:w or self::tei:app])">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- A unit inside a reading shows the reading the apparatus reader chose for the entry (tk:shown: inside a
       variant reading what its first witness reads there, so that after an editor's choice or conjecture
       the variant is still that witness's words): apparatus.xsl's mode reading-content, one rule. -->

  <!-- Verse lines in a reading: parted by " / ", as an apparatus writes them (the whitespace between two
       lines of an lg is not text, and they ran together: "piangendociò che non torna"). -->
  <xsl:template match="tei:l" mode="reading-content">
    <xsl:apply-templates mode="reading-content"/>
    <xsl:if test="following-sibling::*[1][self::tei:l]">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' / '"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template match="tei:w" mode="reading-content">
    <xsl:apply-templates mode="reading-content"/>
    <xsl:if test="following-sibling::node()[1][self::tei:w]">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="last-word">
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="contains($text, ' ')">
        <xsl:call-template name="last-word"><xsl:with-param name="text" select="substring-after($text, ' ')"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ================================================================ forms not collated

       A choice of an edition collated from transcriptions prints its collated form (@ana="#collated") in
       the text; each other form (abbr, sic, orig, with @source naming the transcription it comes from) is
       listed after the text, in text order, as editions of manuscripts record orthographica apart from the
       apparatus of variants: "verbum] vbm W1 1r.1 (abbr.)", lemma, bracket, the witness's form, its witness,
       its page and line there (where the edition has them) and what kind of form it is. They are not variants (the collation read the choice as one reading), so they
       stay out of the numbered apparatus; listed, no form a transcription gives is lost in print. A form
       inside a form not collated is left out with it: its text is in that form's entry. A form without
       text (a glyph the transcription draws but maps to no character) says nothing and is left out. -->
  <xsl:variable name="forms-not-collated"
      select="//tei:text//tei:choice[tei:*[contains(@ana, '#collated')]]
                [not(ancestor::tei:*[parent::tei:choice][not(contains(@ana, '#collated'))])]
                /tei:*[not(contains(@ana, '#collated'))][normalize-space() != '']"/>

  <!-- The entries, separated by the layer's hook forms-separator. -->
  <xsl:template name="forms-not-collated">
    <xsl:for-each select="$forms-not-collated">
      <xsl:if test="position() &gt; 1"><xsl:call-template name="forms-separator"/></xsl:if>
      <xsl:variable name="shown" select="../tei:*[contains(@ana, '#collated')][1]"/>
      <!-- The collated form as printed: its text without the forms of a choice inside it that are not. -->
      <xsl:variable name="lemma">
        <xsl:for-each select="$shown//text()[not(ancestor::tei:*[parent::tei:choice][not(contains(@ana, '#collated'))]
                                              [count(. | $shown/descendant::*) = count($shown/descendant::*)])]">
          <xsl:value-of select="."/>
        </xsl:for-each>
      </xsl:variable>
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(normalize-space($lemma), '] ', normalize-space(.), ' ')"/></xsl:call-template>
      <xsl:call-template name="source-sigla"><xsl:with-param name="tokens" select="normalize-space(@source)"/></xsl:call-template>
      <!-- Where its witness has it: the page and line of the first witness's last pb and lb before it
           ("1r.2"), so that two entries of one lemma are told apart and found in the manuscript. -->
      <xsl:variable name="ed" select="concat('#', substring-after(concat(' ', substring-before(concat(normalize-space(@source), ' '), ' ')), ' #'), ' ')"/>
      <xsl:variable name="page" select="preceding::tei:pb[contains(concat(normalize-space(@ed), ' '), $ed)][1]/@n"/>
      <xsl:variable name="line" select="preceding::tei:lb[contains(concat(normalize-space(@ed), ' '), $ed)][1]/@n"/>
      <xsl:if test="$page or $line">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' ', $page, substring('.', 1, number($page and $line)), $line)"/></xsl:call-template>
      </xsl:if>
      <xsl:call-template name="emit-text">
        <xsl:with-param name="text">
          <xsl:choose>
            <xsl:when test="self::tei:abbr"> (abbr.)</xsl:when>
            <xsl:when test="self::tei:sic"> (sic)</xsl:when>
            <xsl:when test="self::tei:orig"> (orig.)</xsl:when>
            <xsl:otherwise><xsl:value-of select="concat(' (', local-name(), ')')"/></xsl:otherwise>
          </xsl:choose>
        </xsl:with-param>
      </xsl:call-template>
    </xsl:for-each>
  </xsl:template>

  <!-- The sigla of @source's witnesses ("#W1 #W2"), each as the apparatus prints it. -->
  <xsl:template name="source-sigla">
    <xsl:param name="tokens"/>
    <xsl:if test="$tokens != ''">
      <xsl:variable name="token" select="substring-before(concat($tokens, ' '), ' ')"/>
      <xsl:call-template name="emit-siglum">
        <xsl:with-param name="token" select="$token"/>
        <xsl:with-param name="siglum"><xsl:call-template name="siglum"><xsl:with-param name="token" select="$token"/></xsl:call-template></xsl:with-param>
      </xsl:call-template>
      <xsl:if test="contains($tokens, ' ')">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
        <xsl:call-template name="source-sigla"><xsl:with-param name="tokens" select="substring-after($tokens, ' ')"/></xsl:call-template>
      </xsl:if>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
