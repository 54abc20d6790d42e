"""The Arabic word keys the hadith modules share (tei.text.arabic): one folding for chains, quotations, surah names
and the diagram."""

from __future__ import annotations

from tei.hadith import diagram, isnad, quotations, quran
from tei.text.arabic import fold, letters_key, without_conjunction


def test_vocalised_and_bare_words_have_one_key():
    assert fold("حَدَّثَنَا") == fold("حدثنا") == "حدثنا"
    assert fold("أَبِي هُرَيْرَةَ") == "ابي هريره"
    assert letters_key("زُهَيْرُ،") == letters_key("(زهير)") == "زهير"


def test_a_leading_conjunction_comes_off_when_a_word_remains():
    assert without_conjunction(fold("وَاللَّيْلِ")) == "الليل"
    assert without_conjunction("فلا") == "لا"
    assert without_conjunction("ول") == "ول"  # two letters: nothing would remain of the word
    assert without_conjunction("فاطمه", ("و",)) == "فاطمه"


def test_every_hadith_module_keys_words_with_it():
    assert quotations.key("وَإِذْ") == without_conjunction(fold("وَإِذْ"))
    assert quran.name_key("سُورَةُ الأَنْفَالِ") == "انفال"
    assert diagram.name_key("وَزُهَيْرُ بْنُ حَرْبٍ،", None) == "زهير بن حرب"
    assert isnad._bare("وَحَدَّثَنَا") == "حدثنا"
