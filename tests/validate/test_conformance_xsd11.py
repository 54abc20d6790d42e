"""Eight XSD 1.1 test sets of the W3C suite (../shared/corpora/peer-suites/xsd11/), every test through `tei validate`.

ibmMeta assert, assertion, typeAlternatives, openContent; saxonMeta Assert, CTA, Open, Override: 293
schema tests (accepted or refused as expected; the ten of saxonMeta's CTA with one expected validity per
XPath subset are taken for "full-xpath-in-CTA", which xmlschema implements) and 431 instance tests. Grouped:
one test per kind of test and expected verdict, which runs every case of the group (about 25 s for all on
one core, most of it xmlschema loading 293 schemas) and holds its figure exactly: the tests not met are
those of MISSED, and none ends in a traceback or a hang. xmlschema 4.3.2 called directly misses the same
ones but cta0016's two division-by-zero cases, where it raises (here: an XSD diagnostic), so `tei validate`
meets 414 of the 431 instance tests (xmlschema 412) and 290 of the 293 schema tests (xmlschema 290).
"""

from __future__ import annotations

import pytest
from validate import peer_suites

CTA = "saxonMeta/CTA.testSet"
# xmlschema's own misses: conditional types selected by attributes it does not see as the test expects
# (cta0005-cta0021), and three schemas the suite calls invalid that it accepts.
MISSED = {
    **{
        f"{CTA} {group} {group}.{instance}": "valid"
        for group, instances in {
            "cta0005": ["n01"],
            "cta0006": ["n01", "n02"],
            "cta0007": ["n01"],
            "cta0009": ["n01", "n02"],
            "cta0010": ["n01", "n02"],
            "cta0011": ["n01", "n02"],
            "cta0013": ["n01", "n02"],
            "cta0014": ["n01"],
            "cta0015": ["n01"],
            "cta0021": ["n01"],
        }.items()
        for instance in instances
    },
    # An xs:alternative whose test divides by zero: XSD 1.1 takes the test as false, xmlschema raises, and
    # the raise is reported as an XSD error of the document.
    f"{CTA} cta0016 cta0016.v01": "invalid",
    f"{CTA} cta0016 cta0016.v02": "invalid",
    f"{CTA} cta0043 cta0043": "valid",
    f"{CTA} cta9002err cta9002err": "valid",
    f"{CTA} cta9003err cta9003err": "valid",
}
GROUPS = [("schema", "valid"), ("schema", "error"), ("instance", "valid"), ("instance", "invalid")]
_RUN: list = []


@pytest.fixture(scope="module")
def outcomes(shared_dir, tmp_path_factory) -> list:
    if not peer_suites.available():
        pytest.skip("../shared/corpora/peer-suites is absent: these tests need the standards' suites")
    if not _RUN:
        _RUN.extend((case, peer_suites.run(case)) for case in peer_suites.cases("xsd11", tmp_path_factory.mktemp("x")))
    return _RUN


def test_every_test_of_the_sets_is_read(outcomes):
    assert sum(case.kind == "schema" for case, _o in outcomes) == 293
    assert sum(case.kind == "instance" for case, _o in outcomes) == 431


@pytest.mark.parametrize(("kind", "expected"), GROUPS, ids=[f"{k}-{e}" for k, e in GROUPS])
def test_verdicts_as_the_sets_expect(outcomes, kind, expected):
    group = [(case, outcome) for case, outcome in outcomes if (case.kind, case.expected) == (kind, expected)]
    broken = [(case.name, outcome.detail) for case, outcome in group if outcome.verdict in ("traceback", "hang")]
    assert not broken
    missed = {case.name: outcome.verdict for case, outcome in group if not peer_suites.met(case, outcome)}
    names = {case.name for case, _o in group}
    assert missed == {name: got for name, got in MISSED.items() if name in names}
