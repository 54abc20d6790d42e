<?xml version="1.0" encoding="UTF-8"?>
<!--
  The print edition as XeLaTeX source for reledmac: title page and conspectus siglorum from the header,
  the text with line numbers (\beginnumbering, \pstart ... \pend), each unit as \edtext with its
  entries in footnote series A and B (series a and b of xslt/common/print.xsl), and after the text the
  index of cited Qur'an verses (xslt/common/quran-index.xsl) when there are any, and the isnad diagram of a
  hadith edition (isnad-diagram.xsl). Languages and directions
  through polyglossia and bidi (babel with XeLaTeX fails on Arabic). A thin layer over
  xslt/common/apparatus.xsl and xslt/common/print.xsl; its parameters are in params.xsl.

      xsltproc xslt/latex/edition.xsl edition.xml > edition.tex && latexmk -xelatex edition.tex
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:tk="urn:x-tei-toolkit:render"
    exclude-result-prefixes="tei tk">

  <xsl:import href="../common/apparatus.xsl"/>
  <xsl:import href="../common/print.xsl"/>
  <xsl:import href="../common/quran-index.xsl"/>
  <xsl:import href="../common/conspectus.xsl"/>
  <xsl:include href="params.xsl"/>
  <xsl:include href="isnad-diagram.xsl"/>
  <xsl:include href="reledmac-speed.xsl"/>
  <xsl:output method="text" encoding="UTF-8"/>

  <!-- Characters with a meaning in LaTeX, each written by the template latex-character. -->
  <xsl:variable name="special-characters">\{}$&amp;#^_%~</xsl:variable>

  <!-- Arabic letters, marks, digits, punctuation and ligatures (U+0600-06FF, the presentation forms in
       use): a word holding one is set in the Arabic font, right to left. -->
  <xsl:variable name="arabic-characters">&#x060C;&#x061B;&#x061F;&#x0621;&#x0622;&#x0623;&#x0624;&#x0625;&#x0626;&#x0627;&#x0628;&#x0629;&#x062A;&#x062B;&#x062C;&#x062D;&#x062E;&#x062F;&#x0630;&#x0631;&#x0632;&#x0633;&#x0634;&#x0635;&#x0636;&#x0637;&#x0638;&#x0639;&#x063A;&#x0640;&#x0641;&#x0642;&#x0643;&#x0644;&#x0645;&#x0646;&#x0647;&#x0648;&#x0649;&#x064A;&#x064B;&#x064C;&#x064D;&#x064E;&#x064F;&#x0650;&#x0651;&#x0652;&#x0653;&#x0654;&#x0655;&#x0656;&#x0657;&#x0658;&#x0659;&#x065A;&#x065B;&#x065C;&#x065D;&#x065E;&#x065F;&#x0660;&#x0661;&#x0662;&#x0663;&#x0664;&#x0665;&#x0666;&#x0667;&#x0668;&#x0669;&#x066A;&#x066B;&#x066C;&#x066E;&#x066F;&#x0670;&#x0671;&#x0672;&#x0673;&#x0674;&#x0675;&#x0676;&#x0677;&#x0678;&#x0679;&#x067A;&#x067B;&#x067C;&#x067D;&#x067E;&#x067F;&#x0680;&#x0681;&#x0682;&#x0683;&#x0684;&#x0685;&#x0686;&#x0687;&#x0688;&#x0689;&#x068A;&#x068B;&#x068C;&#x068D;&#x068E;&#x068F;&#x0690;&#x0691;&#x0692;&#x0693;&#x0694;&#x0695;&#x0696;&#x0697;&#x0698;&#x0699;&#x069A;&#x069B;&#x069C;&#x069D;&#x069E;&#x069F;&#x06A0;&#x06A1;&#x06A2;&#x06A3;&#x06A4;&#x06A5;&#x06A6;&#x06A7;&#x06A8;&#x06A9;&#x06AA;&#x06AB;&#x06AC;&#x06AD;&#x06AE;&#x06AF;&#x06B0;&#x06B1;&#x06B2;&#x06B3;&#x06B4;&#x06B5;&#x06B6;&#x06B7;&#x06B8;&#x06B9;&#x06BA;&#x06BB;&#x06BC;&#x06BD;&#x06BE;&#x06BF;&#x06C0;&#x06C1;&#x06C2;&#x06C3;&#x06C4;&#x06C5;&#x06C6;&#x06C7;&#x06C8;&#x06C9;&#x06CA;&#x06CB;&#x06CC;&#x06CD;&#x06CE;&#x06CF;&#x06D0;&#x06D1;&#x06D2;&#x06D3;&#x06D4;&#x06D5;&#x06E5;&#x06E6;&#x06F0;&#x06F1;&#x06F2;&#x06F3;&#x06F4;&#x06F5;&#x06F6;&#x06F7;&#x06F8;&#x06F9;&#xFDF2;&#xFDFA;&#xFDFB;</xsl:variable>
  <xsl:variable name="arabic-marks">&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;&#xE000;</xsl:variable>

  <xsl:template match="/">
    <xsl:apply-templates select="." mode="check"/>
    <xsl:text>% The print edition, generated by tei (xslt/latex/edition.xsl): compile with latexmk -xelatex.&#10;</xsl:text>
    <xsl:call-template name="preamble"/>
    <xsl:text>\begin{document}&#10;</xsl:text>
    <xsl:call-template name="title-page"/>
    <xsl:text>\beginnumbering&#10;</xsl:text>
    <xsl:apply-templates select="(//tei:text/tei:body)[1]" mode="body"/>
    <xsl:text>&#10;\endnumbering&#10;</xsl:text>
    <!-- Series c, the clauses of a loose rendering (print.xsl's paraphrase-series): reledmac's endnotes. -->
    <xsl:if test="$paraphrase-series = 'end' and //tei:text//tei:app[@type = 'paraphrase']">
      <xsl:text>&#10;\clearpage&#10;{\footnotesize\noindent\textbf{Paraphrase}\par}\smallskip&#10;\doendnotes{A}&#10;</xsl:text>
    </xsl:if>
    <!-- The forms of the transcriptions not collated (print.xsl), after the text, as in the Typst edition. -->
    <xsl:if test="$forms-not-collated">
      <xsl:text>&#10;\bigskip&#10;{\footnotesize\noindent\textbf{</xsl:text>
      <xsl:call-template name="emit-text"><xsl:with-param name="text">Forms of the transcriptions not collated</xsl:with-param></xsl:call-template>
      <xsl:text>}\par\noindent&#10;</xsl:text>
      <xsl:call-template name="forms-not-collated"/>
      <xsl:text>\par}&#10;</xsl:text>
    </xsl:if>
    <!-- The index of cited verses, after the text, at the apparatus size, as in the Typst edition. -->
    <xsl:if test="$quran-citations">
      <xsl:text>&#10;\bigskip&#10;{\footnotesize\noindent\textbf{</xsl:text>
      <xsl:call-template name="emit-text"><xsl:with-param name="text">Qur’an verses cited</xsl:with-param></xsl:call-template>
      <xsl:text>}\par&#10;</xsl:text>
      <xsl:call-template name="quran-index"/>
      <xsl:text>}&#10;</xsl:text>
    </xsl:if>
    <xsl:call-template name="isnad-diagram"/>
    <xsl:text>\end{document}&#10;</xsl:text>
  </xsl:template>

  <!-- One paragraph of the index of cited verses: the reference, then each citation with the sigla of
       the witnesses that have it. -->
  <xsl:template name="emit-quran-entry">
    <xsl:param name="cref"/>
    <xsl:text>\noindent\hangindent=1em </xsl:text>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$cref"/></xsl:call-template>
    <xsl:for-each select="key('quran-by-cref', $cref)">
      <xsl:text> </xsl:text>
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
      <xsl:variable name="sigla"><xsl:call-template name="citation-witnesses"/></xsl:variable>
      <xsl:if test="string($sigla) != ''">
        <xsl:text> </xsl:text>
        <xsl:call-template name="citation-witnesses"/>
      </xsl:if>
      <xsl:if test="position() != last()"><xsl:text>;</xsl:text></xsl:if>
    </xsl:for-each>
    <xsl:text>\par&#10;</xsl:text>
  </xsl:template>

  <!-- reledmac lets each series take 0.8 of the page by default: two full series overflow the page,
       and paragraphed notes cannot be split, so notes ran off the page. The first series gets 0.6 of the
       text height and the second (spellings, honorifics: shorter) 0.3, 0.9 together (at 0.3 each a heavy
       apparatus left the text 1 to 3 lines a page and a third of the page empty: the seeds took 33 pages;
       at 0.45 each the seeds' pages still ended a quarter empty, on A4 half the page: 9, 13, 6, 8, 1, 1
       lines, now 12, 15, 9, 2; on A5 7 pages of text, now 6). reledmac's estimate of a paragraph of
       notes (\footfudgefiddle) is set below, by the text's direction. \raggedbottom: the page's spare room
       goes below the notes, not between the text and each series. -->
  <!-- An edition in Arabic: the text block ends 0.3 cm higher, so that the vowel marks below the last line of
       the notes (fully vocalised text, Amiri's deep descent) stay above the 2.2 cm bottom margin. -->
  <xsl:variable name="bottom-margin">
    <xsl:choose>
      <xsl:when test="starts-with(/tei:TEI/tei:text/@xml:lang, 'ar') or starts-with(/tei:TEI/@xml:lang, 'ar')">2.5cm</xsl:when>
      <xsl:otherwise>2.2cm</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <xsl:template name="preamble">
    <xsl:value-of select="concat('\documentclass[twoside,', $font-size, ']{article}&#10;')"/>
    <xsl:value-of select="concat('\usepackage[', $paper, 'paper,inner=2.6cm,outer=2.2cm,top=2.4cm,bottom=', $bottom-margin, ',headsep=0.5cm,headheight=14pt]{geometry}&#10;')"/>
    <!-- Each glyph cluster carries its text (ActualText): the font packages' Amiri has no glyph names, so
         without it the contextual forms of Arabic letters could not be copied from the PDF. -->
    <xsl:text>\usepackage{fontspec}
\XeTeXgenerateactualtext=1
\usepackage{fancyhdr}
\usepackage[series={A,B},noeledsec]{reledmac}
\usepackage{polyglossia}
</xsl:text>
    <xsl:call-template name="reledmac-speed"/>
    <xsl:call-template name="isnad-diagram-preamble"/>
    <xsl:value-of select="concat('\setdefaultlanguage{', $polyglossia-language, '}&#10;')"/>
    <xsl:text>\setotherlanguage{arabic}
</xsl:text>
    <!-- The fonts (xslt/common/fonts.xsl, one rule for both engines): the first family of the chain is
         the main font, the first family of language-fonts for ar the Arabic one. tei/render/latex_pdf.py
         reads the three comment lines, loads each family from the font packages' files and sets each
         character in the first family of its language's own and then of the chain that has it
         (\teifallbacka, b, ... are the families of the chain, in order; \teilang{code} ... \teilangend
         mark the text in a language). -->
    <xsl:variable name="chain" select="concat(normalize-space($fonts), ',')"/>
    <xsl:variable name="main-font" select="normalize-space(substring-before($chain, ','))"/>
    <xsl:variable name="arabic-families" select="substring-before(concat(substring-after(concat('; ', normalize-space($language-fonts)), '; ar='), ';'), ';')"/>
    <xsl:variable name="arabic-font">
      <xsl:choose>
        <xsl:when test="normalize-space($arabic-families) != ''"><xsl:value-of select="normalize-space(substring-before(concat($arabic-families, ','), ','))"/></xsl:when>
        <xsl:otherwise>Amiri</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:value-of select="concat('\setmainfont{', $main-font, '}[Ligatures=TeXOff]&#10;')"/>
    <xsl:value-of select="concat('\newfontfamily\arabicfont{', $arabic-font, '}[Script=Arabic]&#10;')"/>
    <xsl:value-of select="concat('% tei-fonts: ', translate(normalize-space($fonts), ',', ';'), '&#10;')"/>
    <xsl:value-of select="concat('% tei-language-fonts: ', normalize-space($language-fonts), '&#10;')"/>
    <xsl:value-of select="concat('% tei-language: ', $language-of-text, '&#10;')"/>
    <xsl:call-template name="fallback-families">
      <xsl:with-param name="rest" select="$chain"/>
    </xsl:call-template>
    <xsl:text>\newcommand{\teilang}[1]{}&#10;\newcommand{\teilangend}{}&#10;</xsl:text>
    <xsl:text>\lineation{section}
\linenummargin{left}
</xsl:text>
    <xsl:value-of select="concat('\firstlinenum{', $line-step, '}&#10;\linenumincrement{', $line-step, '}&#10;')"/>
    <!-- reledmac cannot measure a paragraph of notes before the page is made: it counts each note as high as
         its width times a factor, \footfudgefiddle/64 lines per line width (reledmac's default, 64, counts
         the notes as if they filled their lines). Too low, the notes run into the bottom margin; too high, the
         page is cut short. Measured on the seeds and the corpus editions of the print tests, left to right
         they fit from 84 (72 let the seeds, Avicenna and Propertius overflow): 90, which printed the seeds on
         12 pages instead of 15, 3 John on 17 instead of 21. Right to left (Arabic, Hebrew: Amiri's tall lines
         grow the notes' lines) BAlam52 overflows up to 96: 120 there. -->
    <xsl:variable name="text-lang" select="string((/*/tei:text[1]/ancestor-or-self::*/@xml:lang)[last()])"/>
    <xsl:variable name="notes-direction">
      <xsl:call-template name="text-direction">
        <xsl:with-param name="lang">
          <xsl:choose>
            <xsl:when test="$text-lang != ''"><xsl:value-of select="$text-lang"/></xsl:when>
            <xsl:otherwise><xsl:value-of select="$language-of-text"/></xsl:otherwise>
          </xsl:choose>
        </xsl:with-param>
      </xsl:call-template>
    </xsl:variable>
    <xsl:text>\Xarrangement{paragraph}&#10;\renewcommand*{\footfudgefiddle}{</xsl:text>
    <xsl:choose>
      <xsl:when test="$notes-direction = 'rtl'">120</xsl:when>
      <xsl:otherwise>90</xsl:otherwise>
    </xsl:choose>
    <xsl:text>}&#10;\Xmaxhnotes[A]{0.6\textheight}
\Xmaxhnotes[B]{0.3\textheight}
\raggedbottom
\Xnotenumfont{\bfseries}
\Xnotefontsize{\footnotesize\hyphenpenalty=10000 \exhyphenpenalty=10000 }
\Xlemmafont{\normalfont}
\Xlemmaseparator{\unskip]}
\Xafterlemmaseparator{0.3em}
\Xlinerangeseparator{–}
% Series c (a loose rendering's clauses) as endnotes, keyed like the footnotes: line numbers only (the
% page number reledmac puts before them is set into a box that is never used).
\Xendnotenumfont[A]{\bfseries}
\Xendnotefontsize[A]{\footnotesize}
\Xendlemmaseparator[A]{\unskip]}
\Xendafterlemmaseparator[A]{0.3em}
\Xendlinerangeseparator[A]{–}
\Xendhangindent[A]{1.5em}
\Xendbeforepagenumber[A]{\setbox0=\hbox\bgroup}
\Xendafterpagenumber[A]{\egroup}
\pagestyle{fancy}
\fancyhf{}
\renewcommand{\headrulewidth}{0.3pt}
</xsl:text>
    <xsl:text>\fancyhead[LE,RO]{\small\thepage}&#10;\fancyhead[RE,LO]{\small\textsc{</xsl:text>
    <xsl:call-template name="emit-text">
      <xsl:with-param name="text">
        <xsl:choose>
          <xsl:when test="$running-head != ''"><xsl:value-of select="$running-head"/></xsl:when>
          <xsl:otherwise><xsl:call-template name="short-title"/></xsl:otherwise>
        </xsl:choose>
      </xsl:with-param>
    </xsl:call-template>
    <xsl:text>}}&#10;\newcommand{\teiarabic}[1]{\textarabic{#1}}&#10;</xsl:text>
    <!-- Lines that are not counted: headings, speakers, stage directions. -->
    <xsl:text>\newskip\teiskip&#10;</xsl:text>
    <xsl:text>\newcommand{\teiunnumbered}[1]{\numberlinefalse\pstart #1\pend\numberlinetrue}&#10;</xsl:text>
    <!-- A siglum in the conspectus: in a 3 em column, or, longer than it leaves room for, followed by an en
         space (Ephesians' "arbgr" ran into its description). -->
    <xsl:text>\newcommand{\teisiglumlabel}[1]{\sbox0{\textit{#1}}\ifdim\wd0>2.5em\usebox0\enspace\else\makebox[3em][l]{\usebox0}\fi}&#10;</xsl:text>
  </xsl:template>

  <xsl:template name="fallback-families">
    <xsl:param name="rest"/>
    <xsl:param name="letter" select="'a'"/>
    <xsl:variable name="font" select="normalize-space(substring-before($rest, ','))"/>
    <xsl:if test="$font != ''">
      <xsl:value-of select="concat('\newfontfamily\teifallback', $letter, '{', $font, '}&#10;')"/>
    </xsl:if>
    <xsl:if test="contains(substring-after($rest, ','), ',')">
      <xsl:call-template name="fallback-families">
        <xsl:with-param name="rest" select="substring-after($rest, ',')"/>
        <xsl:with-param name="letter" select="translate($letter, 'abcdefghijklmno', 'bcdefghijklmnop')"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The language of the text, as Typst takes it (TEI/@xml:lang, else the parameter default-lang). -->
  <xsl:variable name="language-of-text">
    <xsl:choose>
      <xsl:when test="/*/@xml:lang"><xsl:value-of select="normalize-space(/*/@xml:lang)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$default-lang"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- The marks of a stretch of text in a language (no-ops for TeX: tei/render/latex_pdf.py sets its
       characters in the language's families). -->
  <xsl:template name="language-start">
    <xsl:if test="normalize-space(@xml:lang) != ''">
      <xsl:value-of select="concat('\teilang{', translate(normalize-space(@xml:lang), '{}\%#', ''), '}')"/>
    </xsl:if>
  </xsl:template>
  <xsl:template name="language-end">
    <!-- {} ends the command: a space after a command word is eaten by TeX, and the text after it ran on
         ("ramlan</hi> may" printed "ramlanmay"). -->
    <xsl:if test="normalize-space(@xml:lang) != ''">\teilangend{}</xsl:if>
  </xsl:template>

  <xsl:variable name="polyglossia-language">
    <xsl:variable name="language">
      <xsl:choose>
        <xsl:when test="/*/@xml:lang"><xsl:value-of select="/*/@xml:lang"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$default-lang"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="code" select="substring-before(concat($language, '-'), '-')"/>
    <xsl:choose>
      <xsl:when test="$code = 'fr'">french</xsl:when>
      <xsl:when test="$code = 'de'">german</xsl:when>
      <xsl:when test="$code = 'it'">italian</xsl:when>
      <xsl:when test="$code = 'la'">latin</xsl:when>
      <xsl:when test="$code = 'es'">spanish</xsl:when>
      <xsl:otherwise>english</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- ================================================================ title page -->

  <xsl:template name="title-page">
    <xsl:text>\begin{titlepage}&#10;\vspace*{0.18\textheight}&#10;\begin{center}&#10;{\Large\bfseries </xsl:text>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$title"/></xsl:call-template>
    <xsl:text>\par}&#10;\vspace{2em}&#10;</xsl:text>
    <xsl:for-each select="$title-statements">
      <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
      <xsl:text>\par\medskip&#10;</xsl:text>
    </xsl:for-each>
    <xsl:text>\end{center}&#10;\vspace{3em}&#10;\noindent\textbf{Conspectus siglorum}\par\medskip&#10;</xsl:text>
    <!-- One paragraph per witness (a table cannot break across pages: 140 witnesses ran off the page). -->
    <xsl:for-each select="$witnesses">
      <xsl:variable name="id"><xsl:call-template name="witness-id"/></xsl:variable>
      <xsl:text>\noindent\hangindent=3em\hangafter=1\teisiglumlabel{</xsl:text>
      <xsl:call-template name="emit-text">
        <xsl:with-param name="text"><xsl:call-template name="siglum"><xsl:with-param name="token" select="$id"/></xsl:call-template></xsl:with-param>
      </xsl:call-template>
      <xsl:text>}</xsl:text>
      <!-- The description, its reference numbers labelled, its notes (xslt/common/conspectus.xsl). -->
      <xsl:call-template name="emit-text">
        <xsl:with-param name="text"><xsl:call-template name="conspectus-description"/></xsl:with-param>
      </xsl:call-template>
      <xsl:for-each select="tei:idno">
        <xsl:text> (</xsl:text>
        <xsl:call-template name="emit-text"><xsl:with-param name="text"><xsl:apply-templates select="." mode="conspectus-reference"/></xsl:with-param></xsl:call-template>
        <xsl:text>)</xsl:text>
      </xsl:for-each>
      <xsl:variable name="described">
        <xsl:call-template name="conspectus-description"/>
      </xsl:variable>
      <xsl:for-each select="tei:note">
        <!-- Each note on a line of its own, but the first of a witness with neither description nor numbers
             on the siglum's line (Ephesians' arbgr1, described only by a note). -->
        <xsl:if test="position() > 1 or string($described) != '' or ../tei:idno">
          <xsl:text>\newline </xsl:text>
        </xsl:if>
        <xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>
      </xsl:for-each>
      <xsl:text>\par\smallskip&#10;</xsl:text>
    </xsl:for-each>
    <xsl:text>\end{titlepage}&#10;</xsl:text>
  </xsl:template>

  <!-- ================================================================ the text -->

  <!-- Text and inline elements standing directly in a container (an app in body, as teiphy writes it)
       are gathered into paragraphs: reledmac numbers lines only inside \pstart ... \pend. -->
  <!-- A container inside a paragraph (lg in a quote in a p, ...) runs on inside it: reledmac refuses a
       \pstart inside another. -->
  <xsl:template match="*[self::tei:lg or self::tei:sp or self::tei:div or self::tei:list or self::tei:item]
                        [ancestor::tei:ab or ancestor::tei:p or ancestor::tei:l or ancestor::tei:head]"
      mode="body" priority="3">
    <xsl:text> </xsl:text>
    <xsl:apply-templates mode="body"/>
    <xsl:text> </xsl:text>
  </xsl:template>

  <!-- Containers, and any other element that holds blocks (an lg inside a metamark or a mod, as EVT
       writes a deleted stanza), are gone through block by block. -->
  <xsl:template match="tei:body | tei:div | tei:div1 | tei:div2 | tei:div3 | tei:div4 | tei:div5 | tei:div6
                       | tei:div7 | tei:lg | tei:sp | tei:front | tei:back | tei:group
                       | *[not(self::tei:app or self::tei:lem or self::tei:rdg or self::tei:rdgGrp)]
                          [.//tei:l or .//tei:p or .//tei:ab or .//tei:lg]
                          [not(ancestor::tei:ab or ancestor::tei:p or ancestor::tei:l or ancestor::tei:head)]"
      mode="body" priority="0.6" name="blocks">
    <xsl:for-each select="node()[not(self::text()[normalize-space() = ''])]">
      <xsl:variable name="block"><xsl:call-template name="is-block"/></xsl:variable>
      <xsl:variable name="after-block">
        <xsl:for-each select="preceding-sibling::node()[not(self::text()[normalize-space() = ''])][1]">
          <xsl:call-template name="is-block"/>
        </xsl:for-each>
      </xsl:variable>
      <xsl:choose>
        <xsl:when test="$block = 'yes'"><xsl:apply-templates select="." mode="body"/></xsl:when>
        <xsl:when test="$after-block != 'no'">
          <xsl:variable name="content"><xsl:apply-templates select="." mode="inline-run"/></xsl:variable>
          <xsl:if test="normalize-space($content) != ''">
            <xsl:value-of select="concat('&#10;\pstart ', $content, '\pend&#10;')"/>
          </xsl:if>
        </xsl:when>
      </xsl:choose>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="is-block">
    <xsl:choose>
      <xsl:when test="self::tei:ab or self::tei:p or self::tei:l or self::tei:head or self::tei:lg or self::tei:listTranspose
                      or self::tei:sp or self::tei:speaker or (self::tei:stage and not(ancestor::tei:p or ancestor::tei:l or ancestor::tei:ab))
                      or (self::* and (.//tei:l or .//tei:p or .//tei:ab or .//tei:lg))
                      or self::tei:div or self::tei:div1 or self::tei:div2 or self::tei:div3 or self::tei:div4
                      or self::tei:div5 or self::tei:div6 or self::tei:div7">yes</xsl:when>
      <xsl:otherwise>no</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- One node of an inline run, then the next sibling while it is not a block. -->
  <xsl:template match="node()" mode="inline-run">
    <xsl:apply-templates select="." mode="body"/>
    <xsl:for-each select="following-sibling::node()[1]">
      <xsl:variable name="block"><xsl:call-template name="is-block"/></xsl:variable>
      <xsl:if test="$block = 'no'"><xsl:apply-templates select="." mode="inline-run"/></xsl:if>
    </xsl:for-each>
  </xsl:template>

  <!-- A paragraph with nothing to print (only notes, page breaks) is left out: reledmac refuses it. -->
  <!-- Headings, speakers and stage directions: set as such, never numbered. Right to left in a right-to-left
       language (its own xml:lang or the nearest one around it, as for a paragraph below), so that a heading
       of an Arabic edition starts at the right edge of the text block, as the web and Typst editions set it;
       set left to right, its words were in order but it stood at the left. Priority 1: a heading with an
       xml:lang of its own is still a heading (not a run in a language, *[@xml:lang] below). -->
  <xsl:template match="tei:head | tei:speaker | tei:stage[not(ancestor::tei:p or ancestor::tei:l or ancestor::tei:ab)]"
      mode="body" priority="1">
    <xsl:variable name="content"><xsl:apply-templates mode="body"/></xsl:variable>
    <xsl:variable name="block-lang" select="string((ancestor-or-self::*/@xml:lang)[last()])"/>
    <xsl:variable name="direction">
      <xsl:call-template name="text-direction"><xsl:with-param name="lang" select="$block-lang"/></xsl:call-template>
    </xsl:variable>
    <xsl:if test="normalize-space($content) != ''">
      <xsl:variable name="style">
        <xsl:choose>
          <xsl:when test="self::tei:head">\noindent\textbf{</xsl:when>
          <xsl:when test="self::tei:speaker">\noindent\textsc{</xsl:when>
          <xsl:otherwise>\hspace*{1.5em}\textit{</xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <xsl:text>&#10;\teiunnumbered{</xsl:text>
      <xsl:if test="$direction = 'rtl'">
        <xsl:text>\setRTL</xsl:text>
        <xsl:if test="starts-with($block-lang, 'ar')">\arabicfont\linespread{1.4}\selectfont</xsl:if>
        <xsl:text> </xsl:text>
      </xsl:if>
      <xsl:call-template name="language-start"/>
      <xsl:value-of select="concat($style, $content, '}')"/>
      <xsl:call-template name="language-end"/>
      <xsl:text>}&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

  <!-- Verse lines given straight in an ab or a p (DLL's Propertius: <ab><l>...</l><app><lem><l>...), not
       quoted inside prose: the ab is a container of lines, each line a paragraph of its own, numbered. -->
  <xsl:template match="tei:ab[tei:l or tei:app/tei:lem/tei:l] | tei:p[tei:l or tei:app/tei:lem/tei:l]"
      mode="body" priority="1.5">
    <xsl:call-template name="blocks"/>
  </xsl:template>

  <xsl:template match="tei:ab | tei:p | tei:l" mode="body" priority="1">
    <!-- A unit whose lemma is made of blocks (whole verse lines, as DLL and EVT write them) has its
         entry at the start of its first block: reledmac takes no paragraph inside \edtext. -->
    <xsl:variable name="me" select="generate-id()"/>
    <xsl:variable name="notes-here">
      <xsl:for-each select="ancestor::tei:app">
        <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
        <xsl:variable name="base" select="(tei:lem | tei:rdg | tei:rdgGrp//tei:lem | tei:rdgGrp//tei:rdg)[generate-id() = $base-id]"/>
        <xsl:if test="generate-id(($base//tei:l | $base//tei:p | $base//tei:ab)[1]) = $me">
          <xsl:call-template name="unit-notes"><xsl:with-param name="lemma" select="''"/></xsl:call-template>
        </xsl:if>
      </xsl:for-each>
    </xsl:variable>
    <xsl:variable name="content"><xsl:value-of select="$notes-here"/><xsl:apply-templates mode="body"/></xsl:variable>
    <!-- The block's language is its own or the nearest one declared around it (TEI or text xml:lang="ar" in
         an Arabic edition): XeTeX has no bidi algorithm of its own, so a paragraph of right-to-left words left
         left to right printed them in reverse order. The direction is the common rule's (text-direction). -->
    <xsl:variable name="block-lang" select="string((ancestor-or-self::*/@xml:lang)[last()])"/>
    <xsl:variable name="direction">
      <xsl:call-template name="text-direction"><xsl:with-param name="lang" select="$block-lang"/></xsl:call-template>
    </xsl:variable>
    <xsl:if test="normalize-space($content) != ''">
      <xsl:text>&#10;\pstart </xsl:text>
      <xsl:if test="$direction = 'rtl'">\setRTL</xsl:if>
      <!-- Vocalised Arabic: more leading, so that the marks of two lines never meet. -->
      <xsl:if test="$direction = 'rtl' and starts-with($block-lang, 'ar')">\arabicfont\linespread{1.4}\selectfont</xsl:if>
      <xsl:if test="$direction = 'rtl'"><xsl:text> </xsl:text></xsl:if>
      <xsl:call-template name="language-start"/>
      <xsl:value-of select="$content"/>
      <xsl:call-template name="language-end"/>
      <xsl:text>\pend&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

  <!-- A block inside a block (l in a quote in a p, ...) runs on inside the outer paragraph; not a line of
       an ab or p made of lines (above). -->
  <xsl:template match="*[self::tei:ab or self::tei:p or self::tei:l or self::tei:head]
                        [ancestor::tei:ab or ancestor::tei:p or ancestor::tei:l or ancestor::tei:head]
                        [not(self::tei:l and ancestor::*[not(self::tei:app or self::tei:lem or self::tei:rdg
                             or self::tei:rdgGrp)][1][self::tei:ab or self::tei:p])]"
      mode="body" priority="2">
    <xsl:text> </xsl:text>
    <xsl:apply-templates mode="body"/>
    <xsl:text> </xsl:text>
  </xsl:template>

  <!-- A run in another language; not what the printed text leaves out (print.xsl's key printed-silently). -->
  <xsl:template match="*[@xml:lang][not(key('printed-silently', generate-id()))]" mode="body">
    <xsl:call-template name="in-language"><xsl:with-param name="mode-body" select="true()"/></xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:app" mode="body">
    <xsl:variable name="base-id"><xsl:call-template name="base-reading"/></xsl:variable>
    <xsl:variable name="base" select="(tei:lem | tei:rdg | tei:rdgGrp//tei:lem | tei:rdgGrp//tei:rdg)[generate-id() = $base-id]"/>
    <xsl:choose>
      <xsl:when test="$base//tei:l or $base//tei:p or $base//tei:ab">
        <xsl:apply-templates select="$base/node()" mode="body"/>
      </xsl:when>
      <xsl:when test="(.//tei:l or .//tei:p or .//tei:ab) and not(ancestor::tei:ab or ancestor::tei:p or ancestor::tei:l or ancestor::tei:head)">
        <!-- Blocks only in a variant reading, between blocks of the text: a paragraph of its own. -->
        <xsl:text>&#10;\pstart </xsl:text>
        <xsl:call-template name="unit-notes">
          <xsl:with-param name="lemma"><xsl:apply-templates select="$base/node()" mode="body"/></xsl:with-param>
        </xsl:call-template>
        <xsl:text>\pend&#10;</xsl:text>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="unit">
          <xsl:call-template name="unit-notes">
            <xsl:with-param name="lemma"><xsl:apply-templates select="$base/node()" mode="body"/></xsl:with-param>
          </xsl:call-template>
        </xsl:variable>
        <!-- The first unit a transposition by reference moves (tk:transposed-by): the transposition's entry
             is an \edtext around it, keyed to its line. -->
        <xsl:variable name="transposition" select="key('unit-by-tk-id', substring-before(concat(normalize-space(@tk:transposed-by), ' '), ' '))[@tk:transposition]"/>
        <xsl:choose>
          <xsl:when test="$transposition">
            <xsl:for-each select="$transposition">
              <xsl:call-template name="unit-notes"><xsl:with-param name="lemma" select="string($unit)"/></xsl:call-template>
            </xsl:for-each>
          </xsl:when>
          <xsl:otherwise><xsl:value-of select="$unit"/></xsl:otherwise>
        </xsl:choose>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A transposition by reference (the reader's tk:transposition) prints nothing in the text: its entry
       stands around the first unit it moves (above). -->
  <xsl:template match="tei:app[@tk:transposition]" mode="body" priority="3"/>

  <!-- [app] The lemma as printed, in \edtext with the unit's notes (the lemma alone when it has none). -->
  <xsl:template name="unit-notes">
    <xsl:param name="lemma"/>
    <xsl:variable name="addition"><xsl:call-template name="is-addition"/></xsl:variable>
    <xsl:variable name="variants"><xsl:call-template name="variant-readings"><xsl:with-param name="addition" select="$addition"/></xsl:call-template></xsl:variable>
    <xsl:variable name="notes">
      <xsl:call-template name="series-note"><xsl:with-param name="series" select="'a'"/><xsl:with-param name="addition" select="$addition"/><xsl:with-param name="variants" select="$variants"/></xsl:call-template>
      <xsl:call-template name="series-note"><xsl:with-param name="series" select="'b'"/><xsl:with-param name="addition" select="$addition"/><xsl:with-param name="variants" select="$variants"/></xsl:call-template>
      <xsl:call-template name="series-note"><xsl:with-param name="series" select="'c'"/><xsl:with-param name="addition" select="$addition"/><xsl:with-param name="variants" select="$variants"/></xsl:call-template>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$notes = ''"><xsl:value-of select="$lemma"/></xsl:when>
      <xsl:otherwise>
        <!-- The space after the lemma goes after \edtext: inside, a lemma that ends a line was keyed to
             the next line (reledmac takes the line where its first argument ends). -->
        <xsl:variable name="trimmed"><xsl:call-template name="right-trimmed"><xsl:with-param name="text" select="$lemma"/></xsl:call-template></xsl:variable>
        <!-- An addition (nothing in the text) stands before the space that precedes it, so that it is
             keyed to the line of the word it follows, not to the next line. -->
        <!-- (When a space follows the unit in the source, that space stands after it; else the space
             taken away before it is put back after it.) -->
        <xsl:variable name="space-follows" select="translate(substring(following-sibling::node()[1][self::text()], 1, 1), '&#9;&#10;&#13;', '   ') = ' '"/>
        <!-- An addition: its base reading has no text (it may hold units that are additions too; only the
             outermost moves the space). -->
        <xsl:variable name="inside-addition">
          <xsl:for-each select="ancestor::tei:app[1]"><xsl:call-template name="is-addition"/></xsl:for-each>
        </xsl:variable>
        <xsl:variable name="moves-space" select="$addition = 'yes' and $inside-addition != 'yes'"/>
        <xsl:if test="$moves-space">\ifhmode\teiskip=\lastskip\unskip\fi</xsl:if>
        <xsl:value-of select="concat('\edtext{', $trimmed, '}{\lemma{')"/>
        <xsl:call-template name="lemma-label"/>
        <xsl:call-template name="lemma-remarks"/>
        <xsl:value-of select="concat('\unskip}', $notes, '}', substring(' ', 1, number(string-length($trimmed) != string-length($lemma))))"/>
        <xsl:if test="$moves-space and not($space-follows)">\ifhmode\hskip\teiskip\relax\fi{}</xsl:if>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="series-note">
    <xsl:param name="series"/>
    <xsl:param name="addition"/>
    <xsl:param name="variants"/>
    <xsl:variable name="present"><xsl:call-template name="has-series"><xsl:with-param name="series" select="$series"/><xsl:with-param name="variants" select="$variants"/></xsl:call-template></xsl:variable>
    <xsl:if test="$present = 'yes'">
      <!-- Series c (print.xsl's paraphrase-series) is reledmac's endnote series A, printed after the text. -->
      <xsl:choose>
        <xsl:when test="$series = 'c'">\Aendnote{</xsl:when>
        <xsl:otherwise><xsl:value-of select="concat('\', translate($series, 'ab', 'AB'), 'footnote{')"/></xsl:otherwise>
      </xsl:choose>
      <xsl:call-template name="series-readings"><xsl:with-param name="series" select="$series"/><xsl:with-param name="addition" select="$addition"/><xsl:with-param name="variants" select="$variants"/></xsl:call-template>
      <xsl:text>}</xsl:text>
    </xsl:if>
  </xsl:template>

  <!-- ================================================================ languages and directions -->

  <!-- Text in a language: its marks (tei/render/latex_pdf.py sets it in the language's families); Arabic
       (xml:lang ar...) as \textarabic, right to left. -->
  <xsl:template name="in-language">
    <xsl:param name="mode-body" select="false()"/>
    <xsl:variable name="direction"><xsl:call-template name="text-direction"><xsl:with-param name="lang" select="@xml:lang"/></xsl:call-template></xsl:variable>
    <!-- ar-Latn (a transliteration) is no Arabic script: left to right, in the text's fonts. -->
    <xsl:variable name="arabic" select="starts-with(@xml:lang, 'ar') and $direction = 'rtl'"/>
    <!-- Left-to-right text inside right-to-left text (an English note in an Arabic verse): \LR, or XeTeX
         sets its words in reverse order, and in the main family (bold or italic kept), not the Arabic one around it. -->
    <!-- The paragraph around it: an ab, p or l, or a heading, speaker or stage direction, each set right to
         left by its language (the templates above). -->
    <xsl:variable name="block" select="ancestor::*[self::tei:ab or self::tei:p or self::tei:l or self::tei:head
                                                   or self::tei:speaker or self::tei:stage[not(ancestor::tei:ab
                                                   or ancestor::tei:p or ancestor::tei:l)]][1]"/>
    <xsl:variable name="around">
      <xsl:call-template name="text-direction"><xsl:with-param name="lang" select="string(($block/ancestor-or-self::*/@xml:lang)[last()])"/></xsl:call-template>
    </xsl:variable>
    <xsl:variable name="embedded" select="$mode-body and $block and $direction = 'ltr' and $around = 'rtl'"/>
    <xsl:call-template name="language-start"/>
    <xsl:if test="$embedded">\LR{\rmfamily </xsl:if>
    <xsl:if test="$arabic">\teiarabic{</xsl:if>
    <xsl:choose>
      <xsl:when test="$mode-body"><xsl:apply-templates mode="body"/></xsl:when>
      <xsl:otherwise><xsl:apply-templates mode="reading-content"/></xsl:otherwise>
    </xsl:choose>
    <xsl:if test="$arabic">}</xsl:if>
    <xsl:if test="$embedded">}</xsl:if>
    <xsl:call-template name="language-end"/>
  </xsl:template>

  <xsl:template match="*[@xml:lang][not(key('no-witness-text', generate-id()))]" mode="reading-content">
    <xsl:call-template name="in-language"/>
  </xsl:template>

  <!-- A note of an entry written in a language of its own (xml:lang; print.xsl's entry-note): in its
       language (\teilang) and its direction, \LR{...} (in the main family) or \RL{...} (Arabic in
       \teiarabic): XeTeX has no bidi algorithm, so an English note in a right-to-left apparatus printed its
       words in reverse order. -->
  <xsl:template name="note-in-language">
    <xsl:param name="direction"/>
    <xsl:variable name="arabic" select="starts-with(@xml:lang, 'ar') and $direction = 'rtl'"/>
    <xsl:call-template name="language-start"/>
    <xsl:choose>
      <xsl:when test="$direction = 'rtl'">\RL{</xsl:when>
      <xsl:otherwise>\LR{\rmfamily </xsl:otherwise>
    </xsl:choose>
    <xsl:choose>
      <xsl:when test="$arabic">\teiarabic{<xsl:call-template name="latex-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template>}</xsl:when>
      <xsl:otherwise><xsl:call-template name="emit-text"><xsl:with-param name="text" select="normalize-space(.)"/></xsl:call-template></xsl:otherwise>
    </xsl:choose>
    <xsl:text>}</xsl:text>
    <xsl:call-template name="language-end"/>
  </xsl:template>

  <!-- ================================================================ hooks and escaping -->

  <xsl:template name="emit-text">
    <xsl:param name="text"/>
    <xsl:variable name="flat" select="translate($text, '&#10;&#13;&#9;', '   ')"/>
    <xsl:choose>
      <xsl:when test="translate($flat, $arabic-characters, '') = $flat">
        <xsl:call-template name="latex-text"><xsl:with-param name="text" select="$flat"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="arabic-words"><xsl:with-param name="text" select="$flat"/></xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Text holding Arabic: each run of words with Arabic letters goes into \teiarabic{...}, from the
       first Arabic character of the run to its last, so that punctuation around it stays left to right. -->
  <xsl:template name="arabic-words">
    <xsl:param name="text"/>
    <xsl:param name="in-arabic" select="false()"/>
    <xsl:variable name="word" select="substring-before(concat($text, ' '), ' ')"/>
    <xsl:variable name="rest" select="substring-after($text, ' ')"/>
    <xsl:variable name="next" select="substring-before(concat($rest, ' '), ' ')"/>
    <xsl:variable name="arabic" select="translate($word, $arabic-characters, '') != $word"/>
    <xsl:variable name="next-arabic" select="contains($text, ' ') and translate($next, $arabic-characters, '') != $next"/>
    <xsl:choose>
      <xsl:when test="not($arabic)">
        <xsl:call-template name="latex-text"><xsl:with-param name="text" select="$word"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="marked" select="translate($word, $arabic-characters, $arabic-marks)"/>
        <xsl:variable name="before" select="string-length(substring-before($marked, '&#xE000;'))"/>
        <xsl:variable name="after"><xsl:call-template name="after-last-mark"><xsl:with-param name="text" select="$marked"/></xsl:call-template></xsl:variable>
        <xsl:variable name="start" select="1 + $before * not($in-arabic)"/>
        <xsl:variable name="end" select="string-length($word) - string-length($after) * not($next-arabic)"/>
        <xsl:if test="not($in-arabic)">
          <xsl:call-template name="latex-text"><xsl:with-param name="text" select="substring($word, 1, $start - 1)"/></xsl:call-template>
          <xsl:text>\teiarabic{</xsl:text>
        </xsl:if>
        <xsl:call-template name="latex-text"><xsl:with-param name="text" select="substring($word, $start, $end - $start + 1)"/></xsl:call-template>
        <xsl:if test="not($next-arabic)">
          <xsl:text>}</xsl:text>
          <xsl:call-template name="latex-text"><xsl:with-param name="text" select="substring($word, $end + 1)"/></xsl:call-template>
        </xsl:if>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:if test="contains($text, ' ')">
      <xsl:text> </xsl:text>
      <xsl:call-template name="arabic-words">
        <xsl:with-param name="text" select="$rest"/>
        <xsl:with-param name="in-arabic" select="$arabic and $next-arabic"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="right-trimmed">
    <xsl:param name="text"/>
    <xsl:variable name="last" select="substring($text, string-length($text))"/>
    <xsl:choose>
      <xsl:when test="$text != '' and ($last = ' ' or $last = '&#10;' or $last = '&#9;' or $last = '&#13;')">
        <xsl:call-template name="right-trimmed"><xsl:with-param name="text" select="substring($text, 1, string-length($text) - 1)"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="after-last-mark">
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="contains($text, '&#xE000;')">
        <xsl:call-template name="after-last-mark"><xsl:with-param name="text" select="substring-after($text, '&#xE000;')"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Sigla in italic (the main font's real italic). -->
  <!-- The register of forms not collated runs on as the apparatus does, its entries an em apart. -->
  <xsl:template name="forms-separator"><xsl:text>\quad{} </xsl:text></xsl:template>

  <xsl:template name="emit-siglum">
    <xsl:param name="siglum"/>
    <xsl:text>\textit{</xsl:text>
    <xsl:call-template name="emit-text"><xsl:with-param name="text" select="$siglum"/></xsl:call-template>
    <xsl:text>}</xsl:text>
  </xsl:template>

  <!-- Between two sigla a space that does not shrink (0.45 em): Noto Serif's word space in
       italic, shrunk in a justified line of notes, was read from the PDF as no space ('BC' for 'B C'). -->
  <xsl:template name="sigla-separator">
    <xsl:text>\hspace{0.45em plus 0.1em}</xsl:text>
  </xsl:template>

  <xsl:template name="emit-character">
    <xsl:param name="code"/>
    <xsl:value-of select="concat('\symbol{&quot;', $code, '}')"/>
  </xsl:template>

  <!-- Text for LaTeX: each special character replaced; split at one kind of character at a time. -->
  <xsl:template name="latex-text">
    <xsl:param name="text"/>
    <xsl:param name="characters" select="$special-characters"/>
    <xsl:variable name="character" select="substring($characters, 1, 1)"/>
    <xsl:choose>
      <xsl:when test="translate($text, $characters, '') = $text">
        <xsl:value-of select="$text"/>
      </xsl:when>
      <xsl:when test="contains($text, $character)">
        <xsl:call-template name="latex-text">
          <xsl:with-param name="text" select="substring-before($text, $character)"/>
          <xsl:with-param name="characters" select="substring($characters, 2)"/>
        </xsl:call-template>
        <xsl:call-template name="latex-character"><xsl:with-param name="character" select="$character"/></xsl:call-template>
        <xsl:call-template name="latex-text">
          <xsl:with-param name="text" select="substring-after($text, $character)"/>
          <xsl:with-param name="characters" select="$characters"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="latex-text">
          <xsl:with-param name="text" select="$text"/>
          <xsl:with-param name="characters" select="substring($characters, 2)"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="latex-character">
    <xsl:param name="character"/>
    <xsl:choose>
      <xsl:when test="$character = '\'">\textbackslash{}</xsl:when>
      <xsl:when test="$character = '^'">\textasciicircum{}</xsl:when>
      <xsl:when test="$character = '~'">\textasciitilde{}</xsl:when>
      <xsl:otherwise><xsl:value-of select="concat('\', $character)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
