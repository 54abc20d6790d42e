<?xml version="1.0" encoding="UTF-8"?>
<!--
  Eulogies (seg type="eulogy", written by tei.hadith) as the reader chooses: parameter `eulogy`.
    source  (default) as each witness writes it;
    normal  one form: the Prophet's as «صلى الله عليه وسلم» in Arabic, "(peace be upon him)" in English
            (the language is the nearest xml:lang, else the script of the eulogy);
            the others (رضي الله عنه, عليه السلام, عز وجل ...) without vocalisation or tatweel;
    symbol  the Prophet's as ﷺ (U+FDFA, in Amiri), the others as under normal.
  Included by the params.xsl of each layer (html, typst, latex), so one declaration serves all three;
  mode text is the web edition's reading text, mode body the print's (through its hook emit-text).
  tk:values lists the accepted values: tei.render checks them before rendering (R103).
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:tk="urn:x-tei-toolkit:render"
    exclude-result-prefixes="tei tk">

  <!-- How eulogies are printed: source, normal or symbol. -->
  <xsl:param name="eulogy" select="'source'" tk:values="source normal symbol"/>

  <xsl:variable name="eulogy-marks" select="'&#x064B;&#x064C;&#x064D;&#x064E;&#x064F;&#x0650;&#x0651;&#x0652;&#x0653;&#x0654;&#x0655;&#x0670;&#x0640;'"/>
  <xsl:variable name="eulogy-arabic-letters" select="'ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي'"/>
  <xsl:variable name="eulogy-upper" select="'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"/>
  <xsl:variable name="eulogy-lower" select="'abcdefghijklmnopqrstuvwxyz'"/>

  <!-- The web edition: the element as its generic template draws it (span or bdi, text-attributes). -->
  <xsl:template match="tei:seg[@type = 'eulogy']" mode="text">
    <xsl:variable name="form"><xsl:call-template name="eulogy-form"/></xsl:variable>
    <xsl:element name="{substring('bdi', 1, 3 * boolean(@xml:lang))}{substring('span', 1, 4 * not(@xml:lang))}">
      <xsl:attribute name="class">tei-seg</xsl:attribute>
      <xsl:call-template name="text-attributes"/>
      <xsl:choose>
        <xsl:when test="string($form) = ''"><xsl:apply-templates mode="text"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$form"/></xsl:otherwise>
      </xsl:choose>
    </xsl:element>
  </xsl:template>

  <!-- The print (a eulogy with a language of its own is left to the layer's language switch, as written). -->
  <xsl:template match="tei:seg[@type = 'eulogy'][not(@xml:lang)]" mode="body">
    <xsl:variable name="form"><xsl:call-template name="eulogy-form"/></xsl:variable>
    <xsl:choose>
      <xsl:when test="string($form) = ''"><xsl:apply-templates mode="body"/></xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="string($form)"/></xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The form to print for the context seg, or '' to print it as the source has it. The Prophet's eulogy is
       the one of subtype prophet (tei.hadith.markup), or, in an edition without subtypes, recognised by its words. -->
  <xsl:template name="eulogy-form">
    <xsl:variable name="bare" select="normalize-space(translate(., $eulogy-marks, ''))"/>
    <xsl:variable name="lower" select="translate($bare, $eulogy-upper, $eulogy-lower)"/>
    <xsl:variable name="lang" select="ancestor-or-self::*[@xml:lang][1]/@xml:lang"/>
    <xsl:variable name="arabic" select="starts-with($lang, 'ar')
        or (not($lang) and translate($bare, $eulogy-arabic-letters, '') != $bare)"/>
    <xsl:variable name="prophet" select="@subtype = 'prophet' or (not(@subtype) and contains($bare, 'ﷺ') or contains($bare, 'صل') or contains($bare, 'الصلاة')
        or (contains($lower, 'peace') and not(contains($lower, 'pleased'))) or contains($lower, 'bless him')
        or contains($lower, 'pbuh'))"/>
    <xsl:choose>
      <xsl:when test="$eulogy = 'source'"/>
      <xsl:when test="$prophet and $eulogy = 'symbol'">ﷺ</xsl:when>
      <xsl:when test="$prophet and $arabic">صلى الله عليه وسلم</xsl:when>
      <xsl:when test="$prophet">(peace be upon him)</xsl:when>
      <xsl:when test="$arabic"><xsl:value-of select="$bare"/></xsl:when>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
