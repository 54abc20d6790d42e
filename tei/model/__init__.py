"""The edition model at the hub: plain dataclasses named after the TEI elements they stand for."""

from tei.model.edition import Edition, Reading, ReadingGroup, Section, Token, Transposition, VariationUnit
from tei.model.witness import Witness, Work

__all__ = [
    "Edition",
    "Reading",
    "ReadingGroup",
    "Section",
    "Token",
    "Transposition",
    "VariationUnit",
    "Witness",
    "Work",
]
