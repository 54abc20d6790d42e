<?xml version="1.0" encoding="UTF-8"?>
<!--
  The index of cited Qur'an verses, shared by the output formats: import it after apparatus.xsl
  (import, so that a format layer can override its hook). A citation is <ref type="quran" cRef="8:9"> in the text (docs/edition-format.md);
  the index lists each distinct cRef once, by surah and then first verse, with every place citing it.

  Key:              quran-by-cref (tei:ref[@type='quran'] by its normalised @cRef)
  Variable:         $quran-citations  the citations in the first text/body
  Named templates:
    quran-index                 for each distinct cRef in order: the hook emit-quran-entry, with the
                                first citation of that cRef as context and the cref parameter
    citation-witnesses  [ref]   the sigla of the reading that holds the citation (through emit-siglum);
                                nothing for a citation in the text every witness shares
  Hook (override in a format layer):
    emit-quran-entry (cref) [first ref]  one index entry; key('quran-by-cref', $cref) gives its citations
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    exclude-result-prefixes="tei">

  <xsl:key name="quran-by-cref" match="tei:ref[@type = 'quran'][@cRef]" use="normalize-space(@cRef)"/>

  <xsl:variable name="quran-citations" select="(//tei:text/tei:body)[1]//tei:ref[@type = 'quran'][@cRef]"/>

  <xsl:template name="quran-index">
    <xsl:for-each select="$quran-citations[generate-id() = generate-id(key('quran-by-cref', normalize-space(@cRef))[1])]">
      <xsl:sort select="substring-before(@cRef, ':')" data-type="number"/>
      <xsl:sort select="substring-before(concat(translate(substring-after(@cRef, ':'), ';', '-'), '-'), '-')" data-type="number"/>
      <xsl:call-template name="emit-quran-entry">
        <xsl:with-param name="cref" select="normalize-space(@cRef)"/>
      </xsl:call-template>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="citation-witnesses">
    <xsl:for-each select="ancestor::*[self::tei:lem or self::tei:rdg][1]">
      <xsl:call-template name="sigla"/>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="emit-quran-entry">
    <xsl:param name="cref"/>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="concat($cref, ' ')"/></xsl:call-template>
  </xsl:template>

</xsl:stylesheet>
