"""The edition model: plain dataclasses named after the TEI elements they stand for, built by collation and
written by the writers. Stages downstream of edition.xml never read it: they read the XML through tei.apparatus."""

from tei.model.edition import Edition, Reading, ReadingGroup, Section, Token, Transposition, VariationUnit, text_read
from tei.model.witness import WITNESS_KINDS, Mark, Regularisation, Witness, Work

__all__ = [
    "WITNESS_KINDS",
    "Edition",
    "Mark",
    "Reading",
    "ReadingGroup",
    "Regularisation",
    "Section",
    "Token",
    "Transposition",
    "VariationUnit",
    "Witness",
    "Work",
    "text_read",
]
