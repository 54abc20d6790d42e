<?xml version="1.0" encoding="UTF-8"?>
<!--
  The apparatus logic every output format shares (XSLT 1.0: lxml, xsltproc and XML editors run it).

  Import it, then override the named templates marked "hook" by import precedence.
  Everything here follows docs/edition-format.md, and the witness rule is the one of tei/apparatus.py.

  Keys:       witness-by-id (tei:witness by @xml:id), witness-by-n (tei:witness by @n),
              readings (the lem and rdg elements of an app, by generate-id() of the app: directly in it or in
              an rdgGrp at any depth, never those of a nested app; document order),
              transpositions (tei:transpose by each of its ptr/@target), app-by-id (tei:app by @xml:id)
  Variables:  $witnesses        the declared witnesses (tei:witness with @xml:id or @n, groups excluded)
              $element-only     names of TEI elements whose own text nodes are layout, not witness text

  The reader's verdicts: rendered from Python, the edition is first read by tei.apparatus (tei/render/entries.py)
  and handed over as a copy that carries them in the namespace urn:x-tei-toolkit:render (prefix tk): tk:id and
  tk:wit (the witnesses that read it) on every app, lem and rdg, and one tk:apparatus at the end of the root
  (tk:unit, tk:reading, tk:lacuna, tk:base with the sigla to print as tk:s; tk:text, each witness's text).
  The templates below print those verdicts when $annotated, and read @wit by themselves only for a plain
  edition file (xsltproc): groups, hands, lacunae and TEI whitespace are then not applied.

  Named templates (context node in brackets):
    witness-id          [witness]   its id: @xml:id, else @n
    siglum              (token)     the printed siglum of a @wit token: @n of the witness, else its id,
                                    else the token without '#'
    sigla               [lem|rdg]   the sigla of the witnesses that read it, each through the hook emit-siglum
                                    (token: the ids it stands for), separated by sigla-separator: as the
                                    reader gives them (groups, ranges, hands) when $annotated, else of @wit
                                    (or of the implicit witnesses of a lem without @wit)
    reader-sigla        [tk:reading|tk:lacuna|tk:base]  the sigla the reader gives, as sigla does
    reader-witnesses    [lem|rdg]   the ids of the witnesses that read it, space-separated ('' when not $annotated)
    witness-text        (wit)       the text of one witness: the reader's (tk:text) when $annotated, else by
                                    the mode witness-text over the body
    implicit-witnesses  [lem]       the tokens ('#id ') of declared witnesses that no reading of the app names
    reading-type        [lem|rdg]   @type, else the rdgGrp's @type, else 'transposition' for a reading of a
                                    transposition by reference in another order than the document's (the
                                    reader's tk:transposed), else 'omission' for an empty rdg, else ''
    unit-types          [app]       the types of the app's variant readings, space-separated ('untyped' if none)
    unit-number         [app]       1-based number of the app in document order
    unit-id             [app]       @xml:id, else 'unit-' followed by its number (stable permalinks)
    is-base-reading     [lem|rdg]   'yes' for the reading shown in the reading text: the first lem, else
                                    the first reading of the app
    entry               [app]       the apparatus entry: base reading, sigla, ']' and the other readings
    transposition-partners [app]    the hook emit-transposition-partner for each other app that a
                                    listTranspose/transpose puts with this one
    text-direction      (lang)      'rtl' for a right-to-left language tag (ar, he, fa, ur, syr, ...), else 'ltr'
    location-path       [any node]  an XPath of '/*[n]' steps to the node, for diagnostics
    report              (severity, code, message)  an xsl:message 'SEVERITY CODE PATH : message'
                                    (tei/render/xslt.py reads it as a diagnostic) and the hook emit-warning

  Hooks (override in a format layer):
    emit-text (text)            write a piece of text (escape it for the target format)
    emit-siglum (siglum, token) write one siglum
    sigla-separator             between two sigla (default ' ')
    entry-lemma-end             after the lemma and its sigla (default '] ')
    entry-reading-separator     between two readings of an entry (default '; ')
    entry-reading               [lem|rdg] one reading of an entry: text, sigla and type
    empty-reading               the text shown for an empty reading (default 'om.', سقط in an Arabic edition:
                                the parameter apparatus-terms and the template apparatus-term)
    emit-character (code)       a character XML cannot hold, from <g type="char" n="U+XXXX"/>
    emit-warning (code, message) a visible warning in the output (default: nothing)
    emit-transposition-partner [app]  one unit transposed with the current one (default: ' ~ N')

  Modes:
    witness-text  (param wit)   the exact text of one witness, by the rebuild rule of edition-format.md
    reading-content             a reading's content for display: nested apps show their base reading
    check                       apply to the root: reports apparatus problems through the template report
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:tk="urn:x-tei-toolkit:render"
    exclude-result-prefixes="tei tk">

  <!-- The apparatus reader's verdicts (tei/render/entries.py), when the document carries them: by the tk:id
       of an app ("u3") or of one of its readings ("u3.2"). -->
  <!-- A key's match is one pattern with a predicate, never a union ("a | b"): libxslt indexes a union by
       merging node-sets, a merge quadratic in their sizes (11 s for the lem and rdg of 20,000 units). -->
  <xsl:key name="reader" match="*[self::tk:unit or self::tk:reading]" use="@of"/>
  <xsl:variable name="annotated" select="boolean(/*/tk:apparatus)"/>

  <xsl:key name="witness-by-id" match="tei:witness" use="@xml:id"/>
  <xsl:key name="witness-by-n" match="tei:witness" use="@n"/>
  <xsl:key name="readings" match="*[self::tei:lem or self::tei:rdg]" use="generate-id(ancestor::tei:app[1])"/>
  <xsl:key name="transpositions" match="tei:transpose" use="tei:ptr/@target"/>
  <xsl:key name="app-by-id" match="tei:app" use="@xml:id"/>

  <xsl:variable name="witnesses"
      select="//tei:witness[(@xml:id or @n) and not(@xml:id = ancestor::tei:listWit/@xml:id)]"/>

  <xsl:variable name="element-only"
      select="' text front body back group div div1 div2 div3 div4 div5 div6 div7 lg app rdgGrp listTranspose transpose list table row listBibl '"/>

  <!-- ================================================================ witnesses and sigla -->

  <xsl:template name="witness-id">
    <xsl:choose>
      <xsl:when test="@xml:id"><xsl:value-of select="@xml:id"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="@n"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="siglum">
    <xsl:param name="token"/>
    <xsl:variable name="id">
      <xsl:choose>
        <xsl:when test="starts-with($token, '#')"><xsl:value-of select="substring($token, 2)"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$token"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="by-id" select="key('witness-by-id', $id)"/>
    <xsl:choose>
      <xsl:when test="$by-id/@n"><xsl:value-of select="$by-id[1]/@n"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$id"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="sigla">
    <xsl:choose>
      <xsl:when test="$annotated and @tk:id">
        <xsl:for-each select="key('reader', @tk:id)"><xsl:call-template name="reader-sigla"/></xsl:for-each>
      </xsl:when>
      <xsl:otherwise><xsl:call-template name="wit-sigla"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="reader-sigla">
    <xsl:for-each select="tk:s">
      <xsl:if test="position() > 1"><xsl:call-template name="sigla-separator"/></xsl:if>
      <xsl:call-template name="emit-siglum">
        <xsl:with-param name="token" select="string(@ids)"/>
        <xsl:with-param name="siglum" select="string(.)"/>
      </xsl:call-template>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="reader-witnesses">
    <xsl:value-of select="@tk:wit"/>
  </xsl:template>

  <xsl:template name="witness-text">
    <xsl:param name="wit"/>
    <xsl:choose>
      <xsl:when test="$annotated">
        <xsl:apply-templates select="/*/tk:apparatus/tk:text[@wit = $wit][1]/node()" mode="witness-text"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:apply-templates select="(//tei:text/tei:body)[1]" mode="witness-text">
          <xsl:with-param name="wit" select="$wit"/>
        </xsl:apply-templates>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="wit-sigla">
    <xsl:variable name="list">
      <xsl:choose>
        <xsl:when test="self::tei:lem and not(@wit)"><xsl:call-template name="implicit-witnesses"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="@wit"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:call-template name="each-siglum">
      <xsl:with-param name="rest" select="concat(normalize-space($list), ' ')"/>
    </xsl:call-template>
  </xsl:template>

  <!-- Each token of $rest (each followed by one space). A long list is cut in two halves at a space, each
       printed by this template again, so the depth of the recursion grows with the logarithm of the list,
       not its length: libxslt stops at a depth of 3,000 (3,000 witnesses in one @wit failed, XS003). -->
  <xsl:template name="each-siglum">
    <xsl:param name="rest"/>
    <xsl:param name="first" select="true()"/>
    <xsl:choose>
      <xsl:when test="string-length($rest) &gt; 256">
        <xsl:variable name="half" select="floor(string-length($rest) div 2)"/>
        <xsl:variable name="head"
                      select="concat(substring($rest, 1, $half), substring-before(substring($rest, $half + 1), ' '), ' ')"/>
        <xsl:call-template name="each-siglum">
          <xsl:with-param name="rest" select="$head"/>
          <xsl:with-param name="first" select="$first"/>
        </xsl:call-template>
        <xsl:call-template name="each-siglum">
          <xsl:with-param name="rest" select="substring($rest, string-length($head) + 1)"/>
          <xsl:with-param name="first" select="false()"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="each-siglum-in-turn">
          <xsl:with-param name="rest" select="$rest"/>
          <xsl:with-param name="first" select="$first"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="each-siglum-in-turn">
    <xsl:param name="rest"/>
    <xsl:param name="first" select="true()"/>
    <xsl:variable name="token" select="substring-before($rest, ' ')"/>
    <xsl:if test="$token != ''">
      <xsl:if test="not($first)"><xsl:call-template name="sigla-separator"/></xsl:if>
      <xsl:call-template name="emit-siglum">
        <xsl:with-param name="token" select="$token"/>
        <xsl:with-param name="siglum">
          <xsl:call-template name="siglum"><xsl:with-param name="token" select="$token"/></xsl:call-template>
        </xsl:with-param>
      </xsl:call-template>
      <xsl:call-template name="each-siglum-in-turn">
        <xsl:with-param name="rest" select="substring-after($rest, ' ')"/>
        <xsl:with-param name="first" select="false()"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="implicit-witnesses">
    <xsl:variable name="all-named">
      <xsl:for-each select="key('readings', generate-id(ancestor::tei:app[1]))/@wit">
        <xsl:value-of select="concat(' ', normalize-space(.), ' ')"/>
      </xsl:for-each>
    </xsl:variable>
    <xsl:for-each select="$witnesses">
      <xsl:variable name="id"><xsl:call-template name="witness-id"/></xsl:variable>
      <xsl:if test="not(contains($all-named, concat(' #', $id, ' ')) or contains($all-named, concat(' ', $id, ' ')))">
        <xsl:value-of select="concat('#', $id, ' ')"/>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <!-- ================================================================ readings and units -->

  <xsl:template name="reading-type">
    <xsl:choose>
      <xsl:when test="@type"><xsl:value-of select="@type"/></xsl:when>
      <xsl:when test="parent::tei:rdgGrp/@type"><xsl:value-of select="parent::tei:rdgGrp/@type"/></xsl:when>
      <xsl:when test="parent::tei:rdgGrp/parent::tei:rdgGrp/@type"><xsl:value-of select="../../@type"/></xsl:when>
      <xsl:when test="@tk:transposed != ancestor::tei:app[1]/@tk:transposition">transposition</xsl:when>
      <xsl:when test="self::tei:rdg and not(*) and string(.) = ''">omission</xsl:when>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="unit-types">
    <xsl:variable name="types">
      <xsl:for-each select="key('readings', generate-id())[self::tei:rdg]">
        <xsl:variable name="type"><xsl:call-template name="reading-type"/></xsl:variable>
        <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
        <xsl:if test="$is-base != 'yes'">
          <xsl:choose>
            <xsl:when test="$type = ''">untyped </xsl:when>
            <xsl:otherwise><xsl:value-of select="concat($type, ' ')"/></xsl:otherwise>
          </xsl:choose>
        </xsl:if>
      </xsl:for-each>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="normalize-space($types) = ''">untyped</xsl:when>
      <xsl:otherwise><xsl:value-of select="normalize-space($types)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="unit-number">
    <!-- The annotated copy carries that number (tk:id "u<n>", counted as xsl:number counts): read there, since
         counting the apps before each app costs time quadratic in their number. -->
    <xsl:choose>
      <xsl:when test="self::tei:app and starts-with(@tk:id, 'u')"><xsl:value-of select="substring(@tk:id, 2)"/></xsl:when>
      <xsl:otherwise><xsl:number level="any" count="tei:app"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="unit-id">
    <xsl:choose>
      <xsl:when test="@xml:id"><xsl:value-of select="@xml:id"/></xsl:when>
      <xsl:otherwise>unit-<xsl:call-template name="unit-number"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="is-base-reading">
    <xsl:variable name="readings" select="key('readings', generate-id(ancestor::tei:app[1]))"/>
    <xsl:variable name="base" select="$readings[self::tei:lem][1] | $readings[1][not($readings[self::tei:lem])]"/>
    <xsl:if test="generate-id($base) = generate-id(.)">yes</xsl:if>
  </xsl:template>

  <!-- A tag's script subtag decides first (ar-Latn, a transliteration, runs left to right); without one,
       the language's own script does. The same rule: tei-direction (xslt/typst/preamble.xsl) and
       tei.render.fonts.own_script. -->
  <xsl:template name="text-direction">
    <xsl:param name="lang"/>
    <xsl:variable name="primary" select="concat(' ', translate(substring-before(concat($lang, '-'), '-'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), ' ')"/>
    <xsl:variable name="script"><xsl:call-template name="script-subtag"><xsl:with-param name="lang" select="$lang"/></xsl:call-template></xsl:variable>
    <xsl:choose>
      <xsl:when test="$script != '' and contains(' arab hebr syrc thaa nkoo adlm rohg samr mand ', concat(' ', $script, ' '))">rtl</xsl:when>
      <xsl:when test="$script != ''">ltr</xsl:when>
      <xsl:when test="contains(' ar ara arc he heb fa fas per ur urd syr ps pus yi yid dv div ckb sd snd ug uig ', $primary)">rtl</xsl:when>
      <xsl:otherwise>ltr</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The script subtag of a language tag, lower case ('latn' of 'ar-Latn'), or ''. -->
  <xsl:template name="script-subtag">
    <xsl:param name="lang"/>
    <xsl:variable name="second" select="substring-before(concat(substring-after($lang, '-'), '-'), '-')"/>
    <xsl:if test="string-length($second) = 4 and translate($second, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '') = ''">
      <xsl:value-of select="translate($second, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"/>
    </xsl:if>
  </xsl:template>

  <!-- ================================================================ the entry: "lemma] readings sigla" -->

  <xsl:template name="entry">
    <xsl:variable name="readings" select="key('readings', generate-id())"/>
    <xsl:for-each select="$readings">
      <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
      <xsl:if test="$is-base = 'yes'">
        <xsl:call-template name="entry-reading"/>
        <xsl:call-template name="entry-lemma-end"/>
      </xsl:if>
    </xsl:for-each>
    <xsl:for-each select="$readings">
      <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
      <xsl:if test="$is-base != 'yes'">
        <xsl:call-template name="entry-reading"/>
        <xsl:if test="position() != last()"><xsl:call-template name="entry-reading-separator"/></xsl:if>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="entry-reading">
    <xsl:choose>
      <xsl:when test="@tk:transposed">
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="string(@tk:transposed)"/></xsl:call-template>
      </xsl:when>
      <xsl:when test="not(*) and string(.) = ''"><xsl:call-template name="empty-reading"/></xsl:when>
      <xsl:otherwise><xsl:apply-templates mode="reading-content"/></xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
    <xsl:call-template name="sigla"/>
    <xsl:variable name="type"><xsl:call-template name="reading-type"/></xsl:variable>
    <xsl:if test="$type != ''">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' (', $type, ')')"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="transposition-partners">
    <xsl:variable name="pointer" select="concat('#', @xml:id)"/>
    <xsl:for-each select="key('transpositions', $pointer)/tei:ptr[@target != $pointer]">
      <xsl:for-each select="key('app-by-id', substring(@target, 2))">
        <xsl:call-template name="emit-transposition-partner"/>
      </xsl:for-each>
    </xsl:for-each>
  </xsl:template>

  <!-- ================================================================ hooks -->

  <xsl:template name="emit-text">
    <xsl:param name="text"/>
    <xsl:value-of select="$text"/>
  </xsl:template>

  <xsl:template name="emit-siglum">
    <xsl:param name="siglum"/>
    <xsl:param name="token"/>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$siglum"/></xsl:call-template>
  </xsl:template>

  <xsl:template name="sigla-separator">
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="' '"/></xsl:call-template>
  </xsl:template>

  <xsl:template name="entry-lemma-end">
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="'] '"/></xsl:call-template>
  </xsl:template>

  <xsl:template name="entry-reading-separator">
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="'; '"/></xsl:call-template>
  </xsl:template>

  <xsl:template name="empty-reading">
    <xsl:call-template name="emit-text">
      <xsl:with-param name="text"><xsl:call-template name="apparatus-term"><xsl:with-param name="name" select="'omission'"/></xsl:call-template></xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <!-- The apparatus's words for an omission and an addition: om./add., or in an Arabic edition (the parameter
       apparatus-terms 'auto' and TEI/@xml:lang ar, or 'arabic') سقط/زيادة, the terms of Arabic editors. -->
  <xsl:param name="apparatus-terms" select="'auto'" tk:values="auto latin arabic"/>
  <xsl:template name="apparatus-term">
    <xsl:param name="name"/>
    <xsl:variable name="arabic" select="$apparatus-terms = 'arabic' or ($apparatus-terms = 'auto' and
        (/*/@xml:lang = 'ar' or starts-with(/*/@xml:lang, 'ar-')))"/>
    <xsl:choose>
      <xsl:when test="$name = 'omission' and $arabic">سقط</xsl:when>
      <xsl:when test="$name = 'omission'">om.</xsl:when>
      <xsl:when test="$arabic">زيادة</xsl:when>
      <xsl:otherwise>add.</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="emit-character">
    <xsl:param name="code"/>
    <xsl:text disable-output-escaping="yes">&amp;#x</xsl:text>
    <xsl:value-of select="$code"/>
    <xsl:text disable-output-escaping="yes">;</xsl:text>
  </xsl:template>

  <xsl:template name="emit-transposition-partner">
    <xsl:variable name="number"><xsl:call-template name="unit-number"/></xsl:variable>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat(' ~ ', $number)"/></xsl:call-template>
  </xsl:template>

  <xsl:template name="emit-warning">
    <xsl:param name="code"/>
    <xsl:param name="message"/>
  </xsl:template>

  <!-- ================================================================ mode witness-text -->

  <xsl:template match="text()" mode="witness-text">
    <xsl:if test="not(namespace-uri(..) = 'http://www.tei-c.org/ns/1.0' and contains($element-only, concat(' ', local-name(..), ' ')))">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="."/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- What carries no witness's text, by generate-id(): left out of a witness's text and of a reading as
       shown; a layer's template for a run in another language (*[@xml:lang]) excludes these by this key. -->
  <xsl:key name="no-witness-text" use="generate-id()"
      match="tei:note | tei:wit | tei:witDetail | tei:listTranspose | comment() | processing-instruction()"/>

  <xsl:template match="node()[key('no-witness-text', generate-id())]" mode="witness-text"/>

  <xsl:template match="tei:g[@type = 'char' and starts-with(@n, 'U+')]" mode="witness-text">
    <xsl:call-template name="emit-character"><xsl:with-param name="code" select="substring(@n, 3)"/></xsl:call-template>
  </xsl:template>

  <xsl:template match="tk:c" mode="witness-text">
    <xsl:call-template name="emit-character"><xsl:with-param name="code" select="@code"/></xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:app" mode="witness-text">
    <xsl:param name="wit"/>
    <xsl:variable name="readings" select="key('readings', generate-id())"/>
    <xsl:variable name="named"
        select="$readings[contains(concat(' ', normalize-space(@wit), ' '), concat(' #', $wit, ' '))
                       or contains(concat(' ', normalize-space(@wit), ' '), concat(' ', $wit, ' '))]"/>
    <xsl:choose>
      <xsl:when test="$named">
        <xsl:apply-templates select="$named[1]/node()" mode="witness-text">
          <xsl:with-param name="wit" select="$wit"/>
        </xsl:apply-templates>
      </xsl:when>
      <xsl:otherwise>
        <xsl:apply-templates select="$readings[self::tei:lem and not(@wit)][1]/node()" mode="witness-text">
          <xsl:with-param name="wit" select="$wit"/>
        </xsl:apply-templates>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="*" mode="witness-text">
    <xsl:param name="wit"/>
    <xsl:apply-templates mode="witness-text"><xsl:with-param name="wit" select="$wit"/></xsl:apply-templates>
  </xsl:template>

  <!-- ================================================================ mode reading-content -->

  <xsl:template match="text()" mode="reading-content">
    <xsl:if test="not(namespace-uri(..) = 'http://www.tei-c.org/ns/1.0' and contains($element-only, concat(' ', local-name(..), ' ')))">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="."/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template match="node()[key('no-witness-text', generate-id())]" mode="reading-content"/>

  <xsl:template match="tei:g[@type = 'char' and starts-with(@n, 'U+')]" mode="reading-content">
    <xsl:call-template name="emit-character"><xsl:with-param name="code" select="substring(@n, 3)"/></xsl:call-template>
  </xsl:template>

  <!-- A unit inside a reading shows the reading the apparatus reader chose for an entry (tk:shown,
       tei/render/entries.py: inside a base reading its base reading, inside a variant reading what the
       first witness of that reading reads), whose words the reading's sigla were checked against; without
       the reader's verdicts, its base reading. -->
  <xsl:template match="tei:app" mode="reading-content">
    <xsl:choose>
      <xsl:when test="@tk:shown">
        <xsl:apply-templates select="key('readings', generate-id())[@tk:id = current()/@tk:shown]/node()" mode="reading-content"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each select="key('readings', generate-id())">
          <xsl:variable name="is-base"><xsl:call-template name="is-base-reading"/></xsl:variable>
          <xsl:if test="$is-base = 'yes'"><xsl:apply-templates mode="reading-content"/></xsl:if>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ================================================================ diagnostics -->

  <xsl:template name="location-path">
    <xsl:for-each select="ancestor-or-self::*">
      <xsl:value-of select="concat('/*[', count(preceding-sibling::*) + 1, ']')"/>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="report">
    <xsl:param name="severity" select="'WARNING'"/>
    <xsl:param name="code"/>
    <xsl:param name="message"/>
    <xsl:variable name="path"><xsl:call-template name="location-path"/></xsl:variable>
    <xsl:message><xsl:value-of select="concat($severity, ' ', $code, ' ', $path, ' : ', $message)"/></xsl:message>
    <xsl:call-template name="emit-warning">
      <xsl:with-param name="code" select="$code"/>
      <xsl:with-param name="message" select="$message"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="/" mode="check">
    <xsl:if test="not(//tei:text/tei:body)">
      <xsl:for-each select="*">
        <xsl:call-template name="report">
          <xsl:with-param name="severity">ERROR</xsl:with-param>
          <xsl:with-param name="code">H001</xsl:with-param>
          <xsl:with-param name="message">the document has no TEI text/body: there is no text to render</xsl:with-param>
        </xsl:call-template>
      </xsl:for-each>
    </xsl:if>
    <xsl:if test="//tei:text/tei:body and not(//tei:app)">
      <xsl:for-each select="(//tei:text/tei:body)[1]">
        <xsl:call-template name="report">
          <xsl:with-param name="code">H002</xsl:with-param>
          <xsl:with-param name="message">the document has no apparatus (no app element): the text is shown without variation units</xsl:with-param>
        </xsl:call-template>
      </xsl:for-each>
    </xsl:if>
    <xsl:if test="//tei:app and not($witnesses)">
      <xsl:for-each select="(//tei:app)[1]">
        <xsl:call-template name="report">
          <xsl:with-param name="code">H003</xsl:with-param>
          <xsl:with-param name="message">the document declares no witness (no listWit/witness): sigla are shown as the @wit attributes give them</xsl:with-param>
        </xsl:call-template>
      </xsl:for-each>
    </xsl:if>
    <xsl:if test="$witnesses">
      <!-- Each element once, in one walk: `//tei:app//*` walks the descendants of every app, nested ones again
           and again, and then sorts out the duplicates. -->
      <xsl:for-each select="//*[self::tei:lem or self::tei:rdg or self::tei:witDetail][@wit][ancestor::tei:app]">
        <xsl:call-template name="check-tokens">
          <xsl:with-param name="rest" select="concat(normalize-space(@wit), ' ')"/>
        </xsl:call-template>
      </xsl:for-each>
    </xsl:if>
  </xsl:template>

  <!-- As each-siglum: a long list is cut in two at a space, so the recursion is as deep as its logarithm. -->
  <xsl:template name="check-tokens">
    <xsl:param name="rest"/>
    <xsl:choose>
      <xsl:when test="string-length($rest) &gt; 256">
        <xsl:variable name="half" select="floor(string-length($rest) div 2)"/>
        <xsl:variable name="head"
                      select="concat(substring($rest, 1, $half), substring-before(substring($rest, $half + 1), ' '), ' ')"/>
        <xsl:call-template name="check-tokens"><xsl:with-param name="rest" select="$head"/></xsl:call-template>
        <xsl:call-template name="check-tokens">
          <xsl:with-param name="rest" select="substring($rest, string-length($head) + 1)"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="check-tokens-in-turn"><xsl:with-param name="rest" select="$rest"/></xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="check-tokens-in-turn">
    <xsl:param name="rest"/>
    <xsl:variable name="token" select="substring-before($rest, ' ')"/>
    <xsl:if test="$token != ''">
      <!-- The token without its '#' (a string, not a result tree fragment: this runs for every siglum). -->
      <xsl:variable name="id" select="substring($token, 1 + starts-with($token, '#'))"/>
      <xsl:if test="not(key('witness-by-id', $id) or key('witness-by-n', $id))
                    and not(preceding::*[self::tei:lem or self::tei:rdg or self::tei:witDetail]
                            [contains(concat(' ', normalize-space(@wit), ' '), concat(' ', $token, ' '))])">
        <xsl:variable name="unit"><xsl:for-each select="ancestor::tei:app[1]"><xsl:call-template name="unit-id"/></xsl:for-each></xsl:variable>
        <xsl:call-template name="report">
          <xsl:with-param name="code">H004</xsl:with-param>
          <xsl:with-param name="message" select="concat('@wit points to &quot;', $token, '&quot; (first in unit ', $unit, '), which no listWit/witness declares')"/>
        </xsl:call-template>
      </xsl:if>
      <xsl:call-template name="check-tokens-in-turn">
        <xsl:with-param name="rest" select="substring-after($rest, ' ')"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
