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

  <!-- Font families in order of preference, comma-separated: the first that has a glyph sets it.
       Libertinus Serif is built into Typst (ā ū ḥ ṭ ʿ ʾ); Amiri (Arabic) comes with the Python
       package fontpkg-amiri, which tei/render/pdf.py gives Typst as a font path. -->
  <xsl:param name="fonts" select="'Libertinus Serif, Amiri'"/>

  <!-- A line number is printed on every n-th line. -->
  <xsl:param name="line-step" select="'5'"/>

  <!-- Running head; '' = the first titleStmt/title of the edition. -->
  <xsl:param name="running-head" select="''"/>

  <!-- Language of the edition's own labels and of the text when TEI/@xml:lang is absent. -->
  <xsl:param name="default-lang" select="'en'"/>

</xsl:stylesheet>
