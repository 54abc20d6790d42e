<?xml version="1.0" encoding="UTF-8"?>
<!--
  The text of one witness as plain text. On an edition annotated by the apparatus reader
  (tei/render/entries.py: `annotated`), it is the reader's text, the same output as `tei witness EDITION \-\-wit W`.
  On a plain edition file it is read by the mode witness-text of apparatus.xsl, which takes each unit's
  reading from @wit but applies neither groups, hands, lacunae nor TEI whitespace: exact only for
  editions like the toolkit's own (xml:space="preserve", witnesses named one by one).

      xsltproc \-\-stringparam wit A xslt/common/witness-text.xsl edition.xml

  Parameter: wit, the witness id (listWit/witness/@xml:id, or the token used in @wit).
  Limitation of XSLT 1.0 text output: a character XML cannot hold (<g type="char" n="U+XXXX"/>)
  comes out as the reference &#xXXXX; rather than as the character itself.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    exclude-result-prefixes="tei">

  <xsl:import href="apparatus.xsl"/>
  <xsl:output method="text" encoding="UTF-8"/>

  <xsl:param name="wit"/>

  <xsl:template match="/">
    <xsl:call-template name="witness-text"><xsl:with-param name="wit" select="$wit"/></xsl:call-template>
  </xsl:template>

</xsl:stylesheet>
