"""The isnad/matn boundary against the hand-checked sample of Sahih Muslim records (labels/): at least 95 % of the
boundaries exact in Arabic and in English, in each of the two samples (dev: read while the rules were written;
heldout: labelled afterwards), and every label consistent with the text it describes."""

from __future__ import annotations

from hadith.boundaries import labels, measure, records, text_of

TARGET = 0.95


def test_the_labels_describe_their_texts(shared_dir):
    by_id = records(shared_dir)
    found = labels()
    assert len({label.record for label in found}) >= 150
    assert {label.language for label in found} == {"ar", "en"}
    for label in found:
        words = text_of(by_id[label.record], label.language).split()
        assert 0 <= label.isnad_words <= len(words), label.record
        if label.language == "en" and label.matn_opens != "-":
            assert " ".join(words[label.isnad_words :]).startswith(label.matn_opens), label.record


def test_exact_boundaries_in_each_language(shared_dir):
    results = measure(shared_dir)
    for language in ("ar", "en"):
        for sample in ("dev", "heldout"):
            mine = [r for r in results if r.label.language == language and r.label.sample == sample]
            assert len(mine) >= 150
            exact = sum(r.exact for r in mine) / len(mine)
            assert exact >= TARGET, (language, sample, exact, [r.label.record for r in mine if not r.exact])
