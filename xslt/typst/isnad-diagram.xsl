<?xml version="1.0" encoding="UTF-8"?>
<!--
  The isnad diagram of a hadith edition (its text collated as isnad and matn) on a page of its own after the
  text: tei.hadith.diagram draws it as SVG from the edition, the renderer passes it in $isnad-diagram ('' for
  any other edition), and Typst places the SVG (its names stay text in the PDF), scaled to the room left on
  that page (height 1fr, fit contain), so that a tall chain never runs below the margin. Included by edition.xsl,
  whose typst-string template quotes it.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Set by tei.render.pdf, never by hand: the SVG document of the diagram. -->
  <xsl:param name="isnad-diagram" select="''"/>

  <xsl:template name="isnad-diagram">
    <xsl:if test="$isnad-diagram != ''">
      <xsl:text>&#10;#if tei-mode != "measure" [&#10;#pagebreak(weak: true)&#10;*Isnad diagram*&#10;&#10;#image(bytes("</xsl:text>
      <xsl:call-template name="typst-string"><xsl:with-param name="text" select="$isnad-diagram"/></xsl:call-template>
      <xsl:text>"), format: "svg", width: 100%, height: 1fr, fit: "contain", alt: "Isnad diagram")&#10;]&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
