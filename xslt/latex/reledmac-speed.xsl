<?xml version="1.0" encoding="UTF-8"?>
<!--
  reledmac made faster without changing a page. Two of its costs grow with the square of a paragraph, and
  the seeds are one paragraph of 530 \edtext and 1,300 notes: one XeLaTeX pass over them took 22 s (a
  print, three passes, 64 s of CPU), 2.2 s with both changes below (7.0 s with the first alone, 12.6 s
  with the second alone; the print 7.2 s).
  - reledmac keeps each of its lists (the lines of each \edtext, the notes to insert and their lines,
    the actions of each line) in one macro, and adding an item or taking the first copies the whole
    macro. These lists become queues: each item in a numbered macro of its own, taken in the same order;
    the list macro is \empty when the queue is, which is what reledmac tests.
    Each item takes a control sequence (a queue starts again at 1 once empty): about 7.5 an \edtext, 4,000
    for the seeds, so TeX Live's 615,000 (hash_extra) hold some 80,000 \edtext in one \beginnumbering.
  - \@check@edtext@args looks for \pstart and \pend in both arguments of every \edtext with xstring's
    \IfSubStr, whose time grows with the square of an argument's length, and an \edtext around others
    holds them all. The same check by a delimited macro, which sees what \IfSubStr sees with
    \noexpandarg (the tokens at brace level 0): the same errors.
  Each replacement is made only where the macros it replaces are exactly those of reledmac 2.39 (TeX Live
  2022); another version is left as it is, only slower. The PDFs are the same byte for byte (the seeds in
  three settings, the mini and transposition fixtures, the 17 corpus editions and three Arabic pairs of
  tests/render/test_pdf_corpora.py).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:template name="reledmac-speed">
    <xsl:text>% reledmac, faster (the same pages): its lists as queues, its check of \edtext by a delimited macro
% (xslt/latex/reledmac-speed.xsl says why).
\makeatletter
\def\tei@queued#1{\ifcsname tei@qt\string#1\endcsname\expandafter\@firstoftwo\else\expandafter\@secondoftwo\fi}
\def\tei@queues{%
  \long\def\xright@appenditem##1\to##2{\tei@queued##2{\tei@enqueue{##1}##2}{\tei@listappend{##1}\to##2}}%
  \long\def\tei@enqueue##1##2{%
    \xdef\tei@item{\the\led@toksa\expandafter{##1}}%
    \edef\tei@n{\csname tei@qt\string##2\endcsname}%
    \global\expandafter\let\csname tei@q\string##2@\tei@n\endcsname\tei@item
    \expandafter\xdef\csname tei@qt\string##2\endcsname{\the\numexpr\tei@n+1\relax}%
    \gdef##2{\tei@queue}}%
  \def\gl@p##1\to##2{\tei@queued##1{\ifx##1\empty\expandafter\tei@listpop\else\expandafter\tei@dequeue\fi}%
    \tei@listpop##1\to##2}%
  \def\tei@dequeue##1\to##2{%
    \edef\tei@n{\csname tei@qh\string##1\endcsname}%
    \expandafter\expandafter\expandafter\gl@poff\csname tei@q\string##1@\tei@n\endcsname\gl@poff\tei@item##2%
    \expandafter\xdef\csname tei@qh\string##1\endcsname{\the\numexpr\tei@n+1\relax}%
    \ifnum\csname tei@qh\string##1\endcsname=\csname tei@qt\string##1\endcsname\relax\list@clear##1\fi}%
  \def\list@clear##1{%
    \tei@queued##1{\expandafter\gdef\csname tei@qh\string##1\endcsname{0}%
      \expandafter\gdef\csname tei@qt\string##1\endcsname{0}}{}%
    \tei@listclear##1}%
  \begingroup
  \def\do##1{\ifx##1\empty\expandafter\gdef\csname tei@qt\string##1\endcsname{0}\list@clear##1\fi}%
  \docsvlist{\inserts@list,\insertlines@list,\line@list,\annot@list,\actionlines@list,\actions@list}%
  \endgroup%
  \PackageInfo{tei}{reledmac's lists are queues}}
\def\tei@fastcheck{%
  \long\def\tei@ifholds##1##2{%
    \long\def\tei@holds####1##2####2\tei@end{\if\relax\detokenize{####2}\relax
      \expandafter\@secondoftwo\else\expandafter\@firstoftwo\fi}%
    \tei@holds##1##2\tei@end}%
  \long\def\@check@edtext@args##1##2{\begingroup
    \tei@ifholds{##1}\pstart{\led@err@PstartInEdtext{first}}{}%
    \tei@ifholds{##1}\pend{\led@err@PendInEdtext{first}}{}%
    \tei@ifholds{##2}\pstart{\led@err@PstartInEdtext{second}}{}%
    \tei@ifholds{##2}\pend{\led@err@PendInEdtext{second}}{}\endgroup}%
  \PackageInfo{tei}{reledmac's check of \string\edtext\space by a delimited macro}}
\begingroup
\long\def\tei@a#1\to#2{\global\led@toksb=\expandafter{#2}\xdef#2{\the\led@toksb\the\led@toksa\expandafter{#1}}\global\led@toksb={}}
\def\tei@b#1\to#2{\expandafter\gl@poff#1\gl@poff#1#2}
\def\tei@c#1{\global\let#1=\empty}
\long\def\tei@d#1#2{\begingroup\noexpandarg\IfSubStr{#1}{\pstart}{\led@err@PstartInEdtext{first}}{}\IfSubStr{#1}{\pend}{\led@err@PendInEdtext{first}}{}\IfSubStr{#2}{\pstart}{\led@err@PstartInEdtext{second}}{}\IfSubStr{#2}{\pend}{\led@err@PendInEdtext{second}}{}\endgroup}
\ifx\tei@a\xright@appenditem\ifx\tei@b\gl@p\ifx\tei@c\list@clear
  \global\let\tei@listappend\xright@appenditem
  \global\let\tei@listpop\gl@p
  \global\let\tei@listclear\list@clear
  \aftergroup\tei@queues
\fi\fi\fi
\ifx\tei@d\@check@edtext@args\aftergroup\tei@fastcheck\fi
\endgroup
\makeatother
</xsl:text>
  </xsl:template>

</xsl:stylesheet>
