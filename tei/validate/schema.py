"""Schema engines behind one interface: RELAX NG (verdict by lxml, errors by our derivatives in relaxng.py and
locate.py), XSD 1.0/1.1 (xmlschema), ISO Schematron (lxml's XPath 1 where it suffices, else elementpath).

`load_schema(path)` reads any schema file once per process and returns its engines (a RELAX NG grammar
with embedded Schematron gives two). Each engine's `check(tree, name)` yields Diagnostics. Large
self-contained RELAX NG grammars such as tei_all are pruned to the document's element names before
lxml compiles them (see prune.py); compiled grammars are cached by the set of names. A document that
fails gets its errors where and as jing reports them (locate.py).
"""

from __future__ import annotations

import copy
import hashlib
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlparse

from lxml import etree

from tei.diagnostics import Diagnostic, error, warning
from tei.errors import InvalidInputError, UsageError
from tei.validate import prune, relaxng_checks
from tei.validate.schematron import SCH15_NS, SCH_NS, SchematronSchema, has_rules
from tei.xmlio import parse_file

if TYPE_CHECKING:  # read only when a document fails (valid ones never need them)
    from tei.validate.locate import Located
    from tei.validate.relaxng_grammar import Grammar

XSD_NS = "http://www.w3.org/2001/XMLSchema"
VC_NS = "http://www.w3.org/2007/XMLSchema-versioning"
XSD11_ONLY = frozenset(
    {"assert", "assertion", "alternative", "openContent", "defaultOpenContent", "override", "explicitTimezone"}
)
XSD11_ATTRIBUTES = (
    "xpathDefaultNamespace",
    "inheritable",
    "defaultAttributes",
    "defaultAttributesApply",
    "notNamespace",
    "notQName",
    "appliesToEmpty",
)
PRUNE_FROM_DEFINITIONS = 200  # smaller grammars compile fast enough whole, and once per process
COMPILED_GRAMMARS_KEPT = 32


class SchemaEngine(Protocol):
    source: Path

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]: ...


class RelaxNGSchema:
    """A RELAX NG grammar (XML syntax): the verdict from lxml/libxml2, the errors placed and worded as jing's."""

    def __init__(self, grammar: etree._ElementTree, source: Path):
        self.source = source
        self.grammar = grammar.getroot()
        self.prunable = prune.is_self_contained(self.grammar) and (
            sum(1 for _ in self.grammar.iter(prune.rng("define"))) >= PRUNE_FROM_DEFINITIONS
        )
        self._compiled: OrderedDict[frozenset, etree.RelaxNG] = OrderedDict()
        self._derivatives: Grammar | None = None
        self._unreadable = False  # the derivatives cannot read the grammar (libxml2's words are given)
        self._may_read_namespaced_values: bool | None = None  # QName values here or in a file it refers to
        self._pruner: prune.Pruner | None = None
        self._check_restrictions()
        if not self.prunable:
            self._whole = self._compile(self.grammar)

    def _compile(self, grammar: etree._Element) -> etree.RelaxNG:
        try:
            return etree.RelaxNG(etree.ElementTree(grammar))
        except etree.RelaxNGParseError as exc:
            entries = list(exc.error_log)
            line, column = relaxng_checks.place(
                self.grammar.getroottree(),
                self.source,
                line=(entries[0].line or None) if entries else None,
                message=entries[0].message if entries else "",
            )
            if entries and entries[0].filename and Path(entries[0].filename).resolve() != self.source:
                # in a file the schema refers to (named in the message): placed at the reference leading there
                line, column = relaxng_checks.place(self.grammar.getroottree(), self.source, message="include")
            raise InvalidInputError(
                error(
                    "SCH002",
                    f"the RELAX NG schema cannot be compiled: {_first_message(exc.error_log)}",
                    self.source,
                    line,
                    column,
                )
            ) from None

    def _check_restrictions(self) -> None:
        """The restrictions libxml2 does not enforce (relaxng_checks.py)."""
        broken = relaxng_checks.broken_restriction(self.grammar)
        if broken is not None:
            node, what = broken
            line, column = relaxng_checks.place(self.grammar.getroottree(), self.source, node)
            raise InvalidInputError(
                error("SCH002", f"the RELAX NG schema is incorrect: {what}", self.source, line, column)
            )

    def validator_for(self, tree: etree._ElementTree) -> etree.RelaxNG:
        """The compiled grammar for this document: the whole one, or one pruned to its element names."""
        if not self.prunable:
            return self._whole
        key = prune.element_names(tree)
        if key not in self._compiled:
            if self._pruner is None:
                self._pruner = prune.Pruner(self.grammar)
            self._compiled[key] = self._compile(self._pruner.prune(key))
            while len(self._compiled) > COMPILED_GRAMMARS_KEPT:
                self._compiled.popitem(last=False)
        self._compiled.move_to_end(key)
        return self._compiled[key]

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]:
        if self._derivatives_decide():  # libxml2 reads QName values without their namespaces (spectest 378, 379)
            placed = self.jing_errors(tree)
            if not self._unreadable:
                for entry in placed:
                    yield error("RNG", entry.message, name, entry.line, entry.column)
                return
        validator = self.validator_for(tree)
        if validator.validate(tree):
            return
        placed = self.jing_errors(tree)
        for entry in placed or list(validator.error_log):  # libxml2's own words if jing's cannot be found
            yield error("RNG", entry.message, name, entry.line or None, entry.column or None)
        if not placed and not validator.error_log:
            yield error("RNG", "the document is not valid against the schema", name, tree.getroot().sourceline)

    def _derivatives_decide(self) -> bool:
        """True when the verdict is the derivatives' rather than libxml2's: the grammar has values read in
        namespaces (QName, NOTATION), which libxml2 compares as strings."""
        from tei.validate.relaxng_grammar import Grammar, UnsupportedGrammar

        if self._may_read_namespaced_values is None:  # read once from the XML, so a valid document builds nothing
            self._may_read_namespaced_values = not prune.is_self_contained(self.grammar) or any(
                (node.get("type") or "").strip() in ("QName", "NOTATION")
                for node in self.grammar.iter(prune.rng("data"), prune.rng("value"))
            )
        if not self._may_read_namespaced_values:
            return False
        if self._derivatives is None and not self._unreadable:
            try:
                self._derivatives = Grammar(self.grammar)
            except UnsupportedGrammar:
                self._unreadable = True
        return self._derivatives is not None and self._derivatives.context_dependent

    def jing_errors(self, tree: etree._ElementTree) -> list[Located]:
        """The errors jing reports, in order, from the whole grammar read into derivatives (only what the
        document enters is read); empty if the grammar cannot be read so (a file it refers to is missing)."""
        from tei.validate import locate
        from tei.validate.relaxng_grammar import Grammar, UnsupportedGrammar

        try:
            if self._derivatives is None and not self._unreadable:
                self._derivatives = Grammar(self.grammar)
            return [] if self._derivatives is None else locate.errors(self._derivatives, tree)
        except UnsupportedGrammar:
            self._unreadable = True
            return []


class XSDSchema:
    """An XML Schema 1.0 or 1.1 run by xmlschema (1.1 when the schema says so or uses 1.1 constructs).

    Comments and processing instructions are not content (XSD's infoset has none): a document holding some
    is checked as a copy without them, their tails kept as text, lines kept. Any exception xmlschema raises,
    loading the schema or checking a document, is reported as a diagnostic (SCH003, XSD), never a traceback.
    """

    def __init__(self, document: etree._ElementTree, source: Path):
        import xmlschema

        self.source = source
        self.version = "1.1" if _is_xsd11(document.getroot(), source) else "1.0"
        schema_class = xmlschema.XMLSchema11 if self.version == "1.1" else xmlschema.XMLSchema10
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.schema = schema_class(str(source), allow="local", defuse="always")
        except Exception as exc:  # noqa: BLE001 - xmlschema raises more than its own exceptions (ValueError, ...)
            raise InvalidInputError(
                error("SCH003", f"the XML Schema cannot be loaded: {_first_line(exc)}", source)
            ) from None
        # xmlschema warns (for example of an import it cannot find): said with each file the schema checks. A
        # ResourceWarning is the garbage collector meeting a file some other code left open, not the schema's.
        self.load_warnings = [
            warning("SCH010", f"the XML Schema loaded with a warning: {str(w.message).splitlines()[0]}", source)
            for w in caught
            if not issubclass(w.category, (ResourceWarning, FutureWarning, DeprecationWarning))
        ]

    def check(self, tree: etree._ElementTree, name: str) -> Iterator[Diagnostic]:
        yield from self.load_warnings
        checked = _without_comments(tree)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                problems = list(self.schema.iter_errors(checked))
        except Exception as exc:  # noqa: BLE001 - a failure of xmlschema on this document, said as one
            yield error("XSD", f"the XML Schema could not check the document: {_first_line(exc)}", name)
            return
        for problem in problems:
            yield error(_xsd_code(problem), _xsd_message(problem), name, getattr(problem, "sourceline", None))


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _without_comments(tree: etree._ElementTree) -> etree._ElementTree:
    """The tree, or a copy of it without comments and processing instructions inside the root element."""
    root = tree.getroot()
    if next(root.iter(etree.Comment, etree.ProcessingInstruction), None) is None:
        return tree
    copied = copy.deepcopy(root)
    etree.strip_elements(copied, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    return etree.ElementTree(copied)


def _is_xsd11(root: etree._Element, source: Path | None = None, seen: set | None = None) -> bool:
    """True if the schema asks for XSD 1.1 (vc:minVersion 1.1 on any element) or uses a construct or attribute
    only 1.1 has, itself or in a local schema document it includes, imports, redefines or overrides."""
    for element in root.iter(etree.Element):
        if (element.get(f"{{{VC_NS}}}minVersion") or "").startswith("1.1"):
            return True
        if etree.QName(element).namespace == XSD_NS and (
            etree.QName(element).localname in XSD11_ONLY or any(a in element.attrib for a in XSD11_ATTRIBUTES)
        ):
            return True
    if source is None:
        return False
    seen = seen if seen is not None else {source.resolve()}
    for reference in root.iter(*(f"{{{XSD_NS}}}{tag}" for tag in ("include", "import", "redefine"))):
        location = reference.get("schemaLocation")
        if not location or urlparse(location).scheme not in ("", "file"):
            continue
        path = (source.parent / urlparse(location).path).resolve()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        try:
            referenced = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True))
        except etree.XMLSyntaxError:
            continue  # xmlschema says why when it loads it
        if _is_xsd11(referenced.getroot(), path, seen):
            return True
    return False


def _xsd_code(problem) -> str:
    """A failed xs:assert reports the assertion's @id (the project XSD uses the Schematron codes); else XSD."""
    schema_element = getattr(problem.validator, "elem", None)
    is_assertion = schema_element is not None and schema_element.tag == f"{{{XSD_NS}}}assert"
    return schema_element.get("id") or "XSD" if is_assertion else "XSD"


def _xsd_message(problem) -> str:
    reason = " ".join((problem.reason or problem.message or "invalid").split())
    return f"{reason} (at {problem.path})" if problem.path else reason


def _first_message(log) -> str:
    entries = list(log)
    return entries[0].message if entries else "unknown error"


def load_schema(path: Path | str) -> list[SchemaEngine]:
    """The engines of one schema file, read once per process (the file's size and time key the cache).

    A self-contained RELAX NG or Schematron file whose bytes the process has met under another path (each
    work of a corpus carries its own copy of the project schema) reuses those engines, compiled rules and
    grammars included, under its own path.
    """
    path = Path(path).resolve()
    try:
        stat = path.stat()
    except OSError:
        stat = None
    return _load(path, stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0)


SHARED_BY_CONTENT_KEPT = 8
_by_content: OrderedDict[str, list[SchemaEngine]] = OrderedDict()


@lru_cache(maxsize=16)
def _load(path: Path, _mtime: int, _size: int) -> list[SchemaEngine]:
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        digest = None  # parse_file says why it cannot be read
    if digest in _by_content:
        _by_content.move_to_end(digest)
        return [_under(engine, path) for engine in _by_content[digest]]
    engines = _engines(path)
    if digest is not None and all(_shareable(engine) for engine in engines):
        _by_content[digest] = engines
        while len(_by_content) > SHARED_BY_CONTENT_KEPT:
            _by_content.popitem(last=False)
    return engines


def _shareable(engine: SchemaEngine) -> bool:
    """Engines whose file alone defines them: Schematron, and RELAX NG without include or externalRef."""
    return isinstance(engine, SchematronSchema) or (
        isinstance(engine, RelaxNGSchema) and prune.is_self_contained(engine.grammar)
    )


def _under(engine: SchemaEngine, path: Path) -> SchemaEngine:
    """The same engine (sharing its compiled state) reporting the schema file as `path`."""
    renamed = copy.copy(engine)
    renamed.source = path
    return renamed


def _engines(path: Path) -> list[SchemaEngine]:
    if path.suffix == ".rnc":
        raise UsageError(
            error(
                "SCH004",
                "compact-syntax RELAX NG (.rnc) is not supported",
                path,
                hint="use the XML syntax (.rng), for example converted with trang",
            )
        )
    document = parse_file(path)
    root = document.getroot()
    namespace = etree.QName(root).namespace
    if namespace == prune.RNG_NS:
        _refuse_remote_includes(root, path)
        document.docinfo.URL = str(path)  # includes resolve next to the grammar
        engines: list[SchemaEngine] = [RelaxNGSchema(document, path)]
    elif namespace == XSD_NS:
        engines = [XSDSchema(document, path)]
    elif namespace in (SCH_NS, SCH15_NS):
        engines = []
    else:
        raise UsageError(
            error(
                "SCH005",
                f"{root.tag} is not the root of a RELAX NG, XML Schema or Schematron file",
                path,
                root.sourceline,
                hint="--schema takes a .rng, .xsd or .sch file",
            )
        )
    if has_rules(root):
        engines.append(SchematronSchema(root, path))
    return engines


def _refuse_remote_includes(grammar: etree._Element, path: Path) -> None:
    for reference in grammar.iter(prune.rng("include"), prune.rng("externalRef")):
        if urlparse(reference.get("href", "")).scheme not in ("", "file"):
            raise InvalidInputError(
                error(
                    "SCH006",
                    f"the grammar refers to the remote file {reference.get('href')}; "
                    "the validator never uses the network",
                    path,
                    reference.sourceline,
                )
            )
