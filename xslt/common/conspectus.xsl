<?xml version="1.0" encoding="UTF-8"?>
<!--
  A witness's entry in the conspectus siglorum, for every engine: its description (the witness element's own
  text and phrases), its reference numbers labelled by their type ("in-book 2", never glued to the description:
  "Mansur)2The text ..."), and its notes (whose wording the text follows, ...), each part apart so that each
  can be set in its own direction. Imported by the print engines; the web page builds the same parts as
  elements (xslt/html/edition.xsl, mode conspectus).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:tei="http://www.tei-c.org/ns/1.0">

  <!-- Letters of the scripts written right to left, and of Latin, to tell a part's direction by its first
       letters. -->
  <xsl:variable name="conspectus-rtl-letters"
      select="'ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةىپچژگکی'"/>
  <xsl:variable name="conspectus-latin-letters"
      select="'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzāīūḥṣḍṭẓʿʾĀĪŪḤṢḌṬẒ'"/>

  <!-- The description of the witness in context: its text and phrases, less reference numbers, notes and
       pointers. -->
  <xsl:template name="conspectus-description">
    <xsl:variable name="text">
      <xsl:apply-templates select="node()[not(self::tei:idno or self::tei:note or self::tei:ptr)]" mode="conspectus-text"/>
    </xsl:variable>
    <xsl:value-of select="normalize-space($text)"/>
  </xsl:template>
  <xsl:template match="text()" mode="conspectus-text"><xsl:value-of select="."/></xsl:template>

  <!-- "ltr" or "rtl": the direction of a text by its first letter of either script. -->
  <xsl:template name="conspectus-direction">
    <xsl:param name="text"/>
    <xsl:variable name="letters" select="translate($text, translate($text, concat($conspectus-rtl-letters, $conspectus-latin-letters), ''), '')"/>
    <xsl:choose>
      <xsl:when test="$letters != '' and contains($conspectus-rtl-letters, substring($letters, 1, 1))">rtl</xsl:when>
      <xsl:otherwise>ltr</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A reference number labelled by its type: "in-book 2", "abd-al-baqi 1763". -->
  <xsl:template match="tei:idno" mode="conspectus-reference">
    <xsl:value-of select="normalize-space(concat(translate(@type, '-', ' '), ' ', .))"/>
  </xsl:template>

</xsl:stylesheet>
