<?xml version="1.0" encoding="UTF-8"?>
<!--
  The isnad diagram of a hadith edition (its text collated as isnad and matn) on a page of its own after the
  text, as in the Typst edition: tei.hadith.diagram draws it as SVG, tei.render.pdf has Typst turn it into a
  one-page PDF beside the LaTeX source (tei.render.latex_pdf.svg_pdf; the names stay text) and passes that
  file's name in $isnad-diagram ('' for any other edition, and for the LaTeX source written alone, which has no
  such file). The drawing is scaled to the text block, keeping its proportions. Included by edition.xsl.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Set by tei.render.pdf, never by hand: the file name of the diagram's PDF beside the source. -->
  <xsl:param name="isnad-diagram" select="''"/>

  <!-- In the preamble: graphicx, only when there is a diagram (other sources stay as they were). -->
  <xsl:template name="isnad-diagram-preamble">
    <xsl:if test="$isnad-diagram != ''">
      <xsl:text>\usepackage{graphicx}&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

  <xsl:template name="isnad-diagram">
    <xsl:if test="$isnad-diagram != ''">
      <xsl:text>&#10;\clearpage&#10;{\noindent\textbf{Isnad diagram}\par}&#10;\medskip&#10;\noindent\includegraphics[width=\textwidth,height=0.8\textheight,keepaspectratio]{</xsl:text>
      <xsl:value-of select="$isnad-diagram"/>
      <xsl:text>}&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
