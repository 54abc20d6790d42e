<?xml version="1.0" encoding="UTF-8"?>
<!--
  The fonts of the print edition, one rule for both engines (included by xslt/typst/params.xsl and
  xslt/latex/params.xsl): text in a language (xml:lang) is set in that language's own families first
  (language-fonts), then, character by character, in the first family of the chain (fonts) that has the
  glyph. Typst does this itself (xslt/typst/preamble.xsl, tei-fonts-for); for XeLaTeX, which has no
  fallback, tei/render/latex_pdf.py applies the same rule to the source. Both engines take the families
  from the same files: the folders of the Python font packages and Debian's Droid Sans Fallback
  (tei/render/fonts.py); a family found in none of them is looked up by name (fontconfig for XeLaTeX).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Font families in order of preference, comma-separated: for each character the first family that
       has its glyph sets it. Noto Serif (fontpkg-noto-serif: Latin, Greek, Cyrillic, the
       transliteration marks, a real italic), Amiri (fontpkg-amiri: Arabic), Frank Ruhl Libre
       (fontpkg-frank-ruhl-libre: pointed Hebrew); Droid Sans Fallback (CJK and fullwidth forms such as
       U+FF0B) is Debian's fonts-droid-fallback. A character none of them has is a warning P014. The
       first family is the main font. -->
  <xsl:param name="fonts" select="'Noto Serif, Amiri, Frank Ruhl Libre, Droid Sans Fallback'"/>

  <!-- The families a language is set in before the chain above: "code=Family, Family; ...". -->
  <xsl:param name="language-fonts" select="'ar=Amiri; fa=Amiri; ur=Amiri; grc=Noto Serif; el=Noto Serif; he=Frank Ruhl Libre; heb=Frank Ruhl Libre'"/>

</xsl:stylesheet>
