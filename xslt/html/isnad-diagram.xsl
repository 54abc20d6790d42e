<?xml version="1.0" encoding="UTF-8"?>
<!--
  The isnad diagram of a hadith edition (its text collated as isnad and matn): the narrators of every witness's
  chains as nodes, shared links merged, the common link drawn thicker. tei.hadith.diagram draws it as SVG from
  the edition; the renderer passes it in $isnad-diagram ('' for any other edition), and this template puts it
  in the page, inline, so that its nodes are elements of the page. Included by edition.xsl.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- Set by tei.render.html, never by hand: the SVG document of the diagram. -->
  <xsl:param name="isnad-diagram" select="''"/>

  <xsl:template name="isnad-diagram">
    <xsl:if test="$isnad-diagram != ''">
      <section class="isnad-diagram" aria-labelledby="isnad-diagram-heading">
        <h2 id="isnad-diagram-heading">Isnad diagram</h2>
        <p>Each narrator of the witnesses' chains once, the Companion at the top; a line joins a narrator to the one
          who heard the report from him, thicker the more witnesses have it; the common link, through whom every
          witness's chains pass, has a thicker box.</p>
        <!-- Wider than a phone: it scrolls sideways, so a keyboard must reach it (focusable, named); on a narrow
             screen a line says so and a shadow marks the edge that hides more (edition.css, .isnad-cue). -->
        <p class="isnad-cue" aria-hidden="true">The diagram is wider than the screen: scroll it sideways to see
          every narrator.</p>
        <figure class="isnad-figure" dir="ltr" style="overflow-x: auto" tabindex="0" role="region"
            aria-label="Isnad diagram (scrolls sideways on a narrow screen)">
          <xsl:value-of select="$isnad-diagram" disable-output-escaping="yes"/>
        </figure>
      </section>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
