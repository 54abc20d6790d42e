"""The wheel: it carries the schemas and stylesheets, the resolver finds them there, and each one loads."""

import subprocess
import sys
import zipfile

import pytest
from paths import PROJECT

from tei.resources import resource_root, shipped

SCHEMA_SUFFIXES = (".rng", ".xsd", ".sch")
LOAD_EVERY_RESOURCE = """
import sys
from lxml import etree
import xmlschema
import tei.resources as r
assert str(r.resource_root("schemas")).startswith(sys.argv[1]), r.resource_root("schemas")
for path in r.shipped("schemas", (".rng", ".xsd", ".sch")):
    if path.suffix == ".rng":
        etree.RelaxNG(etree.parse(str(path)))
    elif path.suffix == ".xsd":
        xmlschema.XMLSchema11(str(path))
    else:
        from lxml import isoschematron
        isoschematron.Schematron(etree.parse(str(path)))
    print("schema", path.name)
for path in r.shipped("xslt", (".xsl", ".xslt")):
    etree.XSLT(etree.parse(str(path)))
    print("stylesheet", path.name)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(PROJECT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (path,) = out.glob("tei_edition-*.whl")
    return path


def test_wheel_carries_the_shipped_resources(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for kind in ("schemas", "xslt"):
        in_checkout = {  # Python's byte code is not shipped (a test imports schemas/derive_xsd.py, which writes it)
            p.relative_to(resource_root(kind)).as_posix()
            for p in resource_root(kind).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        in_wheel = {n.removeprefix(f"tei/{kind}/") for n in names if n.startswith(f"tei/{kind}/")}
        assert in_checkout == in_wheel, kind
    assert any(n.endswith("entry_points.txt") for n in names)


def test_every_shipped_resource_loads_from_the_unpacked_wheel(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", LOAD_EVERY_RESOURCE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert loaded.count("schema") == len(shipped("schemas", SCHEMA_SUFFIXES))
    assert loaded.count("stylesheet") == len(shipped("xslt", (".xsl", ".xslt")))
