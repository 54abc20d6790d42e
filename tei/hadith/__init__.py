"""Hadith structure: Qur'an citations (quran), chains of narrators and texts (isnad), eulogy formulas (eulogy)."""
