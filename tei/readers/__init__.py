"""Readers: turn files (plain text, TEI, manifests) into the edition model."""
