"""Script tables: which characters belong to a script, and the language a text's letters suggest."""

from __future__ import annotations

import re
import unicodedata

# The Arabic blocks: Arabic, Arabic Supplement, Arabic Extended-A, Presentation Forms-A and -B.
ARABIC_LETTER = re.compile(r"[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]")


def guess_language(text: str) -> str:
    """'ar' when most letters are Arabic script, otherwise 'en'."""
    letters = [c for c in text if unicodedata.category(c).startswith("L")]
    arabic = sum(1 for c in letters if ARABIC_LETTER.match(c))
    return "ar" if letters and arabic * 2 > len(letters) else "en"
