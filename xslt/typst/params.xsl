<?xml version="1.0" encoding="UTF-8"?>
<!--
  Parameters of the Typst print edition: every one, in one place. All are strings; pass them with
  `xsltproc \-\-stringparam NAME VALUE` or, from Python, through tei/render/pdf.py (which quotes them).
  The apparatus series (series-b-types, hidden-types, lemma-words) are parameters of
  xslt/common/print.xsl, shared with the LaTeX layer.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Paper size, a Typst paper name (a4, a5, us-letter, ...). -->
  <xsl:param name="paper" select="'a5'"/>

  <!-- Size of the edition text; the apparatus is set at 80 % of it. -->
  <xsl:param name="font-size" select="'10.5pt'"/>

  <!-- fonts, language-fonts: the fonts of the print, one rule for both engines (declared there). -->
  <xsl:include href="../common/fonts.xsl"/>

  <!-- A line number is printed on every n-th line. -->
  <xsl:param name="line-step" select="'5'"/>

  <!-- Running head; '' = the first titleStmt/title of the edition. -->
  <xsl:param name="running-head" select="''"/>

  <!-- Language of the edition's own labels and of the text when TEI/@xml:lang is absent. -->
  <xsl:param name="default-lang" select="'en'"/>

  <!-- eulogy: how eulogies are printed (source, normal, symbol); declared there for every layer. -->
  <xsl:include href="../common/eulogy.xsl"/>

</xsl:stylesheet>
