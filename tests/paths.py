"""Paths every test may need: the project, its seeds and fixtures, ../shared and the artifacts folder."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
PROJECT = TESTS.parent
SEEDS = PROJECT / "seeds"
FIXTURES = TESTS / "fixtures"
RENDER_FIXTURES = TESTS / "render" / "fixtures"
ARABIC_SCENE = RENDER_FIXTURES / "arabic-scene.xml"  # a play in Arabic: speakers, a stage direction, prose
SHARED = PROJECT.parent / "shared"
ARTIFACTS = TESTS / "artifacts"
# The parallel-segmentation editions of other projects in ../shared/corpora/tei-apparatus/ (the Guidelines
# chapter there is a <div>, not a TEI document, and is tested on its own).
APPARATUS_SAMPLES = (
    "evt_avicenna.xml",
    "evt_pseudoEdition.xml",
    "open-cbgm_3_john_collation.xml",
    "open-cbgm_john_6_23_collation.xml",
    "stemmaweb_florilegium_tei_ps.xml",
    "teiphy_ubs_ephesians.xml",
)
