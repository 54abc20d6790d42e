"""Reads an edition manifest (TOML) into a Work: title, witnesses with their texts, base and profile.

The format is documented in docs/manifest.md. Every mistake is reported with the manifest's path and,
where the key can be found in the file, its line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

from tei.diagnostics import error
from tei.errors import InvalidInputError, MissingResourceError
from tei.hadith.authority import read_narrators
from tei.model import WITNESS_KINDS, Regularisation, Work
from tei.readers.plain_text import decode_utf8, read_witness
from tei.readers.scholarly import CHOICE_FORMS, COLLATE, Policy
from tei.readers.transcription import read_transcription_witnesses
from tei.text.normalize import PROFILES  # the registry of normalisation profiles (docs/collation.md)
from tei.xmlio import LANGUAGE_TAG, XML_ILLEGAL, read_bytes

MANIFEST_NAME = "edition.toml"
EDITION_KEYS = {
    "id": str, "title": str, "language": str, "base": str, "profile": str,
    "short_title": str, "editors": list, "version": str, "doi": str,  # citing the edition (CITATION.cff)
}  # fmt: skip
DOI = re.compile(r"10\.\d{4,9}(\.\d+)?/[A-Za-z0-9:/_;\-.()\[\]\\]+\Z")  # as CITATION.cff takes it
EDITION_REQUIRED = ("id", "title")
HADITH_KEYS = {"narrators": str}  # [hadith]: the authority file of narrators (docs/hadith.md)
WITNESS_KEYS = {
    "id": str, "siglum": str, "file": str, "language": str, "description": str, "references": dict, "kind": str,
    "transcription": dict,
}  # fmt: skip
WITNESS_REQUIRED = ("id", "file")
RENDER_FORMATS = ("html", "pdf")
REGULARISE_KEYS = (
    "reading",
    "as",
    "witness",
    "unit",
)  # the [render.FORMAT] tables; [render] itself holds options for both
XML_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
REFERENCE_TYPE = re.compile(r"[^\s]+\Z")  # a TEI idno/@type: one token


def manifest_path(path: Path | str) -> Path:
    """The manifest file for a path that names either the file or the folder holding edition.toml."""
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST_NAME
    if not path.exists():
        raise MissingResourceError(
            error("M001", "manifest does not exist", path, hint=f"write an {MANIFEST_NAME}; see docs/manifest.md")
        )
    return path


def _load(path: Path) -> tuple[str, dict]:
    """The manifest's text and its TOML; not valid TOML is M002 with the line and column. A byte-order mark
    that an editor put first is not part of it; TOML nested deeper than the parser's recursion goes is M002."""
    source = decode_utf8(read_bytes(path, "manifest"), str(path)).removeprefix("\ufeff")
    try:
        return source, tomllib.loads(source)
    except RecursionError:
        raise InvalidInputError(
            error("M002", "not valid TOML here: arrays or tables nested too deeply", path)
        ) from None
    except tomllib.TOMLDecodeError as exc:
        place = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line, column = (int(place[1]), int(place[2])) if place else (None, None)
        raise InvalidInputError(error("M002", f"not valid TOML: {exc}", path, line, column)) from None


def read_manifest(path: Path | str) -> Work:
    path = manifest_path(path)
    source, data = _load(path)
    problems = _Problems(path, source)
    edition = data.pop("edition", None)
    witnesses = data.pop("witness", None)
    _check_render(problems, data.pop("render", {}))
    rules = data.pop("regularise", [])
    hadith = data.pop("hadith", {})
    policy = transcription_policy(problems, data.pop("transcription", {}), "[transcription]", Policy())
    for key in data:
        problems.add(
            "M003",
            f"unknown key '{key}' at the top level (expected [edition], [[witness]], [[regularise]], [render] "
            "[hadith] and [transcription])",
            key,
        )
    if not isinstance(hadith, dict):
        problems.add("M003", "'hadith' must be a table: [hadith]", "hadith")
        hadith = {}
    _check_table(problems, hadith, HADITH_KEYS, (), "[hadith]")
    if not isinstance(edition, dict):
        problems.add("M004", "the [edition] table is missing", None)
        edition = {}
    if not isinstance(witnesses, list) or not witnesses:
        problems.add("M004", "no [[witness]] entries", None)
        witnesses = []
    _check_table(problems, edition, EDITION_KEYS, EDITION_REQUIRED, "[edition]")
    for entry in witnesses:
        _check_table(problems, entry, WITNESS_KEYS, WITNESS_REQUIRED, "[[witness]]")
    problems.raise_if_any()
    _check_identities(problems, edition, witnesses)
    _check_profile(problems, edition)
    _check_doi(problems, edition)
    regularisations = _regularisations(problems, rules, {w["id"] for w in witnesses})
    policies = {
        w["id"]: transcription_policy(problems, w.get("transcription", {}), f"transcription of '{w['id']}'", policy)
        for w in witnesses
    }
    problems.raise_if_any()
    work = replace(_build_work(path, edition, witnesses, policies), regularisations=regularisations)
    if "narrators" in hadith:
        named_at = (path, problems._line_of("narrators", None))  # a missing file is reported at this line
        work = replace(work, narrators=read_narrators(path.parent / hadith["narrators"], hadith["narrators"], named_at))
    return work


def _regularisations(problems, rules, witness_ids: set[str]) -> tuple[Regularisation, ...]:
    """[[regularise]] entries: reading and as (as many words each), and at most a witness and a unit."""
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        problems.add("M015", "'regularise' must be a list of tables: [[regularise]]", "regularise")
        return ()
    found = []
    for number, rule in enumerate(rules, 1):
        for key in rule:
            if key not in REGULARISE_KEYS:
                problems.add(
                    "M003", f"unknown key '{key}' in [[regularise]] (known: {', '.join(REGULARISE_KEYS)})", key
                )
        values = {k: rule.get(k) for k in REGULARISE_KEYS}
        if not all(
            isinstance(v, str) and v.strip() for k, v in values.items() if v is not None or k in ("reading", "as")
        ):
            problems.add("M015", f"[[regularise]] number {number} needs 'reading' and 'as' (non-empty strings); "
                         "'witness' and 'unit', when given, are strings too", "reading")  # fmt: skip
            continue
        if len(rule["reading"].split()) != len(rule["as"].split()):
            problems.add("M015", f"[[regularise]] number {number}: 'reading' and 'as' need as many words", "as",
                         rule["as"])  # fmt: skip
            continue
        if rule.get("witness") is not None and rule["witness"] not in witness_ids:
            problems.add("M015", f"[[regularise]] number {number} names the witness '{rule['witness']}', which is "
                         "not one of the witnesses", "witness", rule["witness"])  # fmt: skip
            continue
        found.append(
            Regularisation(f"reg-{number}", rule["reading"], rule["as"], rule.get("witness"), rule.get("unit"))
        )
    return tuple(found)


def read_render_settings(path: Path | str) -> dict[str, dict[str, str]]:
    """The manifest's [render] table: options for every output ("") and for each format ("html", "pdf"),
    each value as the string a stylesheet parameter takes (a list joined by spaces, true/false). Which
    names a format takes is checked where the formats are known (tei build, M014)."""
    path = manifest_path(path)
    _, data = _load(path)  # read before the manifest itself by tei build: its M002 too
    table = data.get("render", {})
    settings: dict[str, dict[str, str]] = {"": {}}
    for key, value in table.items():
        if isinstance(value, dict):
            settings[key] = {name: _parameter(v) for name, v in value.items()}
        else:
            settings[""][key] = _parameter(value)
    return settings


def line_of_key(path: Path | str, key: str) -> int | None:
    """The line where a key is set in the manifest, for a diagnostic about it."""
    path = manifest_path(path)
    return _Problems(path, decode_utf8(read_bytes(path, "manifest"), str(path)))._line_of(key, None)


def _parameter(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _check_render(problems, table):
    """[render]: options (strings, numbers, booleans, lists of strings) and a table per output format."""
    if not isinstance(table, dict):
        problems.add("M014", "'render' must be a table: [render]", "render")
        return
    for key, value in table.items():
        if isinstance(value, dict):
            if key not in RENDER_FORMATS:
                known = ", ".join(f"[render.{f}]" for f in RENDER_FORMATS)
                problems.add("M014", f"unknown table [render.{key}] (known: {known})", key)
                continue
            for name, option in value.items():
                if not _is_option(option):
                    problems.add("M014", f"'{name}' in [render.{key}] must be a string, number, boolean or list", name)
        elif not _is_option(value):
            problems.add("M014", f"'{key}' in [render] must be a string, number, boolean or list", key)


def _is_option(value) -> bool:
    return isinstance(value, (str, int, float, bool)) or (
        isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value)
    )


def _check_table(problems, table, keys, required, name):
    for key, value in table.items():
        if key not in keys:
            problems.add("M003", f"unknown key '{key}' in {name} (known: {', '.join(keys)})", key)
        elif key == "transcription":
            continue  # checked by transcription_policy
        elif keys[key] is dict:
            _check_references(problems, key, value, name)
        elif keys[key] is list:
            if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
                problems.add("M005", f"'{key}' in {name} must be a list of non-empty strings", key)
        elif not isinstance(value, keys[key]) or not value.strip():
            problems.add("M005", f"'{key}' in {name} must be a non-empty string", key, value)
        else:
            _check_value(problems, key, value, name)
    for key in required:
        if key not in table:
            problems.add("M004", f"{name} lacks the required key '{key}'", None)


def _check_value(problems, key, value: str, name: str) -> None:
    """A string the edition will carry (title, siglum, description, ...): no character XML cannot hold (M018:
    it would be refused, or become <g>, only once the transcriptions are written), and a `language` that is a
    language tag, as xml:lang takes it (M019: else the edition fails its own schema)."""
    found = value if problems._line_of(key, value) else None  # its own line when found there, else the key's
    bad = XML_ILLEGAL.search(value)
    if bad:
        problems.add("M018", f"'{key}' in {name} holds the character U+{ord(bad.group()):04X}, which XML cannot "
                     "hold", key, found)  # fmt: skip
    elif key == "language" and not LANGUAGE_TAG.match(value):
        problems.add("M019", f"'language' in {name} is {value!r}, which is not a language tag (BCP 47: en, ar, "
                     "ar-Latn, grc, ...)", key, found)  # fmt: skip


def _check_references(problems, key, value, name):
    """`references = { abd-al-baqi = "1763", in-book = 58 }`: typed reference numbers (M012)."""
    if not isinstance(value, dict) or not all(
        REFERENCE_TYPE.match(kind)
        and isinstance(number, (str, int))
        and not isinstance(number, bool)
        and str(number).strip()
        for kind, number in value.items()
    ):
        problems.add(
            "M012",
            f"'{key}' in {name} must be a table of reference types (one word each) and "
            "their numbers (strings or integers)",
            key,
        )


def _check_doi(problems, edition):
    doi = edition.get("doi")
    if isinstance(doi, str) and doi.strip() and not DOI.match(doi.strip()):
        problems.add(
            "M020", f"'doi' in [edition] is not a DOI (10.NNNN/suffix, without https://doi.org/): '{doi}'", "doi"
        )


def _check_profile(problems, edition):

    profile = edition.get("profile")
    if profile is not None and profile not in PROFILES:
        problems.add(
            "M011", f"unknown normalisation profile '{profile}' (known: {', '.join(sorted(PROFILES))})", "profile"
        )


def _check_identities(problems, edition, witnesses):
    if "id" in edition and not XML_ID.match(edition["id"]):
        problems.add("M006", f"edition id '{edition['id']}' is not an ASCII XML name", "id", edition["id"])
    seen_ids, seen_sigla = set(), set()
    for entry in witnesses:
        wid, siglum = entry["id"], entry.get("siglum", entry["id"])
        if not XML_ID.match(wid):
            problems.add("M006", f"witness id '{wid}' is not an ASCII XML name (letters, digits, _ . -)", "id", wid)
        if wid in seen_ids:
            problems.add("M007", f"duplicate witness id '{wid}'", "id", value=wid)
        if siglum in seen_sigla:
            problems.add("M008", f"duplicate siglum '{siglum}'", "siglum", value=siglum)
        seen_ids.add(wid)
        seen_sigla.add(siglum)
    for entry in witnesses:
        kind = entry.get("kind")
        if isinstance(kind, str) and kind not in WITNESS_KINDS:
            known = ", ".join(WITNESS_KINDS)
            problems.add(
                "M013", f"witness '{entry['id']}' has the unknown kind '{kind}' (known: {known})", "kind", kind
            )
    base = edition.get("base")
    if base is not None and base not in seen_ids:
        problems.add("M009", f"base witness '{base}' is not one of the witnesses", "base", base)


def transcription_policy(problems, table, where: str, inherited: Policy) -> Policy:
    """A `[transcription]` table (of the edition, or of one witness over it): which form of each choice
    is collated and which hand layers (docs/manifest.md); a wrong key or value is M030."""
    if not isinstance(table, dict):
        problems.add("M030", f"{where} must be a table", "transcription")
        return inherited
    forms = dict(inherited.forms)
    collate, hands, part = inherited.collate, dict(inherited.hands), None  # part: one witness's own
    for key, value in table.items():
        if key in CHOICE_FORMS and value in CHOICE_FORMS[key]:
            forms[key] = value
        elif key == "collate" and value in COLLATE:
            collate = value
        elif key == "hands" and isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            hands.update(value)
        elif key == "part" and isinstance(value, str) and value:
            part = value
        else:
            allowed = {
                **{k: "/".join(v) for k, v in CHOICE_FORMS.items()},
                "collate": "/".join(COLLATE),
                "hands": "{ NAME = SIGLUM-SUFFIX }",
                "part": "an xml:id",
            }
            problems.add(
                "M030",
                f"{where}: {key} = {value!r} is not a setting (expected "
                + ", ".join(f"{k} = {v}" for k, v in allowed.items())
                + ")",
                key,
            )
    return Policy(forms, collate, hands, part)


def _build_work(path: Path, edition: dict, witnesses: list[dict], policies: dict | None = None) -> Work:
    folder = path.parent
    loaded = []
    for entry in witnesses:
        file = folder / entry["file"]
        if not file.is_file():
            raise MissingResourceError(
                error("M010", f"witness '{entry['id']}' names the file '{entry['file']}', which does not exist", path)
            )
        facts = {k: entry[k] for k in ("language", "description", "kind") if k in entry}
        if file.suffix.lower() == ".xml":  # a TEI transcription: its witness and the hand layers collated
            if "references" in entry:
                facts["references"] = tuple((kind, str(n)) for kind, n in entry["references"].items())
            facts.update(id=entry["id"], siglum=entry.get("siglum", entry["id"]))
            loaded.extend(read_transcription_witnesses(file, (policies or {}).get(entry["id"]), **facts))
            continue
        facts["references"] = tuple((kind, str(number)) for kind, number in entry.get("references", {}).items())
        loaded.append(read_witness(file, entry["id"], entry.get("siglum"), **facts))
    return Work(
        id=edition["id"],
        title=edition["title"],
        language=edition.get("language", "en"),
        base=edition.get("base"),
        profile=edition.get("profile", "default"),
        witnesses=tuple(loaded),
        short_title=edition.get("short_title"),
        editors=tuple(name.strip() for name in edition.get("editors", ())),
        version=edition.get("version"),
        doi=edition.get("doi", "").strip() or None,
    )


class _Problems:
    """Collects manifest problems with the line where the offending key stands."""

    def __init__(self, path: Path, source: str):
        self.path, self.lines, self.found = path, source.splitlines(), []

    def add(self, code, message, key, value=None):
        self.found.append(error(code, message, self.path, self._line_of(key, value)))

    def _line_of(self, key, value):
        if key is None:
            return None
        written = "" if value is None else rf"\s*[\"']?{re.escape(str(value))}\b"
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*={written}")
        matches = [n for n, text in enumerate(self.lines, 1) if pattern.match(text)]
        return (matches[-1] if value is not None else matches[0]) if matches else None

    def raise_if_any(self):
        if self.found:
            raise InvalidInputError(*self.found)
