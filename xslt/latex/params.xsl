<?xml version="1.0" encoding="UTF-8"?>
<!--
  Parameters of the LaTeX (reledmac) print edition: every one, in one place. All are strings; pass them
  with `xsltproc \-\-stringparam NAME VALUE` or, from Python, through tei/render/pdf.py (which quotes them).
  The apparatus series (series-b-types, hidden-types, lemma-words) are parameters of
  xslt/common/print.xsl, shared with the Typst layer.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Paper size, a geometry option without 'paper' (a4, a5, letter, ...). -->
  <xsl:param name="paper" select="'a5'"/>

  <!-- Size of the edition text, a class option (10pt, 11pt or 12pt); the apparatus is \footnotesize. -->
  <xsl:param name="font-size" select="'10pt'"/>

  <!-- fonts, language-fonts: the fonts of the print, one rule for both engines (declared there); the
       first family of fonts is the main font, that of language-fonts for ar the Arabic one. -->
  <xsl:include href="../common/fonts.xsl"/>

  <!-- A line number is printed on every n-th line. -->
  <xsl:param name="line-step" select="'5'"/>

  <!-- Running head; '' = the first titleStmt/title of the edition. -->
  <xsl:param name="running-head" select="''"/>

  <!-- Language of the text when TEI/@xml:lang is absent (a polyglossia language name is derived for
       en, fr, de, it, la, es; any other gives english). -->
  <xsl:param name="default-lang" select="'en'"/>

  <!-- eulogy: how eulogies are printed (source, normal, symbol); declared there for every layer. -->
  <xsl:include href="../common/eulogy.xsl"/>

</xsl:stylesheet>
