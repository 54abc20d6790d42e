"""Isnad and matn: Arabic transmission terms and the ح switch, English openings and embedded chains."""

from __future__ import annotations

from pathlib import Path

import regex

from tei.hadith.isnad import recognise
from tei.hadith.isnad_en import embedded_chains
from tei.text.normalize import PROFILES

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
KEY = PROFILES["hadith-ar"].key


def _bare(text: str) -> str:
    return " ".join(KEY(word) for word in text.split())


def test_a_plain_chain_ends_with_the_companion():
    text = "حَدَّثَنَا زُهَيْرُ بْنُ حَرْبٍ، حَدَّثَنَا جَرِيرٌ، عَنْ أَبِي هُرَيْرَةَ، قَالَ أَتَى رَسُولُ اللَّهِ"
    structure = recognise(text, "ar")
    assert _bare(text[: structure.isnad_end]) == _bare("حدثنا زهير بن حرب، حدثنا جرير، عن أبي هريرة،")
    assert text[structure.isnad_end :].startswith("قَالَ")


def test_a_term_followed_by_the_prophet_belongs_to_the_text():
    text = "حدثنا محمد بن رافع، أخبرني هشام، عن سفيان بن أبي زهير، قال سمعت رسول الله يقول"
    assert text[recognise(text, "ar").isnad_end :] == "قال سمعت رسول الله يقول"


def test_the_companion_eulogy_and_pronoun_verbs_stay_in_the_chain():
    text = "حدثني حرملة، عن ابن شهاب، أن حكيم بن حزام، أخبره أنه، قال لرسول الله"
    assert text[recognise(text, "ar").isnad_end :] == "قال لرسول الله"
    text = "حدثنا يحيى، عن نافع، عن ابن عمر، - رضي الله عنهما - أن رسول الله قال"
    assert text[recognise(text, "ar").isnad_end :] == "أن رسول الله قال"


def test_ha_switches_between_chains():
    text = (
        "حدثنا يحيى بن يحيى، قالا أخبرنا الليث، ح وحدثنا قتيبة بن سعيد، حدثنا ليث، عن ابن شهاب، "
        "أن سهل بن سعد، أخبره أن رجلا اطلع في جحر في باب رسول الله"
    )
    structure = recognise(text, "ar")
    assert text[structure.isnad_end :] == "أن رجلا اطلع في جحر في باب رسول الله"
    assert len(structure.chains) == 2
    second = structure.chains[1]
    assert text[second[0] : second[1]].startswith("ح وحدثنا قتيبة")


def test_no_chain_no_isnad():
    assert not recognise("قال رسول الله صلى الله عليه وسلم", "ar").isnad_end
    assert not recognise("When it was the day of Badr", "en").isnad_end


def test_english_openings():
    cases = {
        "It is narrated from Sayyiduna Umar (may Allah be pleased with him) that on the day": "It is narrated from Sayyiduna Umar (may Allah be pleased with him) that ",
        "It is narrated on the authority of Abdullah b. Mas'ud that a man said:": "It is narrated on the authority of Abdullah b. Mas'ud that ",
        "Salim reported on the authority of his father that Allah's Messenger said:": "Salim reported on the authority of his father that ",
        "Ibn 'Umar (Allah be pleased with them) reported that the Messenger": "Ibn 'Umar (Allah be pleased with them) reported that ",
    }
    for text, isnad in cases.items():
        assert text[: recognise(text, "en").isnad_end] == isnad


def test_the_seeds():
    texts = {path.name[:3]: path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("*.txt"))}
    structures = {name: recognise(text, "en") for name, text in texts.items()}
    assert [s.isnad_end > 0 for s in structures.values()] == [False, True, False, False]
    ((start, end),) = embedded_chains(texts["000"])
    assert texts["000"][start:end] == "Abu Zumail said that the hadith was narrated to him by Ibn `Abbas who said: "


def test_every_corpus_narration_has_a_chain_ending_before_the_text(arabic_pairs):
    terms = regex.compile(r"^و?(?:حدثنا|حدثني|اخبرنا|اخبرني)")
    for pair in arabic_pairs:
        for narration in pair:
            text = narration["arabic"]
            structure = recognise(text, "ar")
            isnad, matn = _bare(text[: structure.isnad_end]), _bare(text[structure.isnad_end :])
            assert terms.match(isnad), narration["idInBook"]
            assert "رسول" not in isnad and "النبي" not in isnad, narration["idInBook"]
            assert len(matn.split()) > len(isnad.split()) / 2, narration["idInBook"]


def test_the_companion_and_his_eulogy_end_the_chain():
    cases = {
        # the Companion's name never opens the text
        "حدثنا ابن جريج، أخبرني أبو الزبير، أنه سمع جَابِرًا، يقول رأيت النبي": "يقول رأيت النبي",
        # a vocalised eulogy stays in the chain
        "حدثنا مالك، عن نافع، عن ابن عمر، رَضِيَ اللَّهُ عَنْهُمَا أن رسول الله قال": "أن رسول الله قال",
        # "قال قال X" before his words: X is the last narrator
        "حدثنا أنس، عن نافع، قال قال عبد الله بن عمر ذكر رسول الله": "ذكر رسول الله",
        # a person of the story is not a narrator
        "حدثنا قتيبة، عن نافع، عن ابن عمر، أن رجلا، سأل رسول الله": "أن رجلا، سأل رسول الله",
        # a second narrator at one link, an aside, "قالا حدثنا", "كلاهما عن"
        "حدثنا أبو بكر، وزهير بن حرب، - واللفظ لزهير - قالا حدثنا وكيع، كلاهما عن سفيان، عن أبي هريرة، قال كان": (
            "قال كان"
        ),
        # the chain stops at the first word that goes on with none of its links (no term deep in the text)
        "حدثنا روح، أنه سمع جابر بن عبد الله، يسأل عن الورود، فقال نجيء يوم القيامة عن كذا": (
            "يسأل عن الورود، فقال نجيء يوم القيامة عن كذا"
        ),
    }
    for text, matn in cases.items():
        assert text[recognise(text, "ar").isnad_end :] == matn, text


def test_english_narrated_and_further_links():
    cases = {
        "Narrated Ibn 'Abbas: The Prophet said": "Narrated Ibn 'Abbas: ",
        "It was narrated from Simak bin Harb, that Mus'ab bin Sa'd said: 'Abdullah came": (
            "It was narrated from Simak bin Harb, that Mus'ab bin Sa'd said: "
        ),
        "Abu Huraira reported Allah's Messenger (ﷺ) as saying: Fast": "Abu Huraira reported ",
        "Salim b. Abdullah reported his father (Allah be pleased with him) saying: I saw": (
            "Salim b. Abdullah reported his father (Allah be pleased with him) saying: "
        ),
        "Kuraib, the freed slave of Ibn 'Abbas (Allah be pleased with him), reported from Maimuna, the wife of the "
        "Messenger of Allah (ﷺ), that people had doubt": (
            "Kuraib, the freed slave of Ibn 'Abbas (Allah be pleased with him), reported from Maimuna, the wife of the "
            "Messenger of Allah (ﷺ), that "
        ),
    }
    for text, isnad in cases.items():
        assert text[: recognise(text, "en").isnad_end] == isnad, text


def test_a_misprinted_ibn_does_not_hide_the_chain():
    """«lbn 'Abbas» (a lower-case l for I) and «Ibm 'Abbas» read as the name they misprint (issue 34)."""
    for name in ("lbn 'Abbas", "Ibm 'Abbas", "Ibn 'Abbas"):
        text = f"It is narrated on the authority of {name} that when it was the day of Badr"
        assert text[: recognise(text, "en").isnad_end] == f"It is narrated on the authority of {name} that "
