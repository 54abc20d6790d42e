"""The edition model at the hub: plain dataclasses named after the TEI elements they stand for."""

from tei.model.witness import Witness, Work

__all__ = ["Witness", "Work"]
