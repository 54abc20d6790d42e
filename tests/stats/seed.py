"""The seeds' collated edition (build/edition.xml as `tei build seeds` writes it), for tests that read it."""

from __future__ import annotations

from pathlib import Path

from paths import SEEDS


def seed_edition(folder: Path) -> Path:
    """Collate the seeds and write their edition.xml into `folder` (nothing else of the build)."""
    from tei.app.build import BuildOptions, edition
    from tei.readers.manifest import read_manifest

    ((path, data),) = edition(read_manifest(SEEDS / "edition.toml"), BuildOptions(folder)).items()
    path.write_bytes(data)
    return path
