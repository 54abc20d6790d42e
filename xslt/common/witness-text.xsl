<?xml version="1.0" encoding="UTF-8"?>
<!--
  The exact text of one witness, rebuilt from the apparatus (the rule of docs/edition-format.md),
  as plain text: the same output as `tei witness EDITION \-\-wit W`.

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
    <xsl:apply-templates select="(//tei:text/tei:body)[1]" mode="witness-text">
      <xsl:with-param name="wit" select="$wit"/>
    </xsl:apply-templates>
  </xsl:template>

</xsl:stylesheet>
