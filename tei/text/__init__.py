"""The leaf text layer: normalisation profiles and script tables, imported downward by every stage.

It imports nothing of tei but errors and diagnostics, so readers, writers, collation and hadith
recognition can share one definition of what a letter, a mark or a comparison key is.
"""
