<?xml version="1.0" encoding="UTF-8"?>
<!--
  Parameters of the HTML web edition: every one, in one place. All are strings; pass them with
  `xsltproc \-\-stringparam NAME VALUE` or, from Python, through tei/render/html.py (which quotes them).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Folder, relative to the page, holding edition.css and edition.js ('' = next to the page). -->
  <xsl:param name="assets" select="''"/>

  <!-- Folder, relative to the page, of the edition file, so that the links of
       witness/ptr[@type='transcription']/@target (relative to the edition) still work from the site.
       '' = the page sits next to the edition; tei build passes '../'. -->
  <xsl:param name="edition-base" select="''"/>

  <!-- Title of the page; '' = the first titleStmt/title of the edition. -->
  <xsl:param name="title" select="''"/>

  <!-- Language of the page's own labels and of the text when the edition's TEI/@xml:lang is absent. -->
  <xsl:param name="default-lang" select="'en'"/>

  <!-- Reading types treated as non-substantive: the "substantive only" filter hides them. -->
  <xsl:param name="non-substantive-types" select="'orthographic honorific particle punctuation whitespace'"/>

  <!-- How many witnesses the synoptic view shows before the reader picks others. -->
  <xsl:param name="synoptic-columns" select="'6'"/>

  <!-- eulogy: how eulogies are printed (source, normal, symbol); declared there for every layer. -->
  <xsl:include href="../common/eulogy.xsl"/>

</xsl:stylesheet>
