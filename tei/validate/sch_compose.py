"""Schematron schema composition: one schema element from sch:include, sch:extends, abstract patterns and rules.

ISO Schematron (2016/2020) defines a schema by three preprocessing steps before any rule runs, done here on
a copy of the schema document, in order:

1. Schematron 1.5 (namespace http://www.ascc.net/xml/schematron) is read as ISO: its elements are renamed.
2. Inclusion: each sch:include is replaced by the element its @href names (a whole file, or the element of
   it whose xml:id or id is the fragment after '#'), itself composed first relative to its own file; each
   sch:extends with @href is replaced by the children of the rule it names. A file that includes itself
   (directly or not) is refused.
3. Abstract rules and patterns: each sch:extends with @rule is replaced by the children of the abstract
   rule of that id in the same pattern or in the schema's sch:rules (recursively), abstract rules removed; each pattern with @is-a
   becomes a copy of the abstract pattern of that id, with each `$name` of its sch:param replaced by the
   param's value in every attribute, and abstract patterns removed.

Any schema error a processor must report (an include that cannot be read, an extends of a rule that is not
abstract or not in the pattern, an is-a naming no abstract pattern, a rule extending itself) is refused
with SCH011 and the schema's line. Expressions that name prefixes the included file declares with its own
sch:ns get that file's namespaces: the included element carries them (NS_ATTRIBUTE) for the engine.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from tei.diagnostics import error
from tei.errors import InvalidInputError

SCH_NS = "http://purl.oclc.org/dsdl/schematron"
SCH15_NS = "http://www.ascc.net/xml/schematron"
XSL_KEY = "{http://www.w3.org/1999/XSL/Transform}key"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NS_ATTRIBUTE = "{urn:x-tei-toolkit:schematron}namespaces"  # the sch:ns of the file an included element came from
MAX_DEPTH = 32


def sch(tag: str) -> str:
    return f"{{{SCH_NS}}}{tag}"


def schema_error(message: str, source: Path, line: int | None) -> InvalidInputError:
    return InvalidInputError(error("SCH011", f"the Schematron schema is in error: {message}", source, line))


def composed(root: etree._Element, source: Path) -> etree._Element:
    """The schema as its rules run: a copy of `root` with steps 1-3 of the module's docstring done. Rules
    embedded in another schema (RELAX NG) are first taken out of it (`_embedded`)."""
    root = _as_iso(root if etree.QName(root).namespace in (SCH_NS, SCH15_NS) else _embedded(root))
    _resolve_references(root, source, (source.resolve(),), 0)
    _expand_abstract_rules(root, source)
    _instantiate_abstract_patterns(root, source)
    return root


def _embedded(host: etree._Element) -> etree._Element:
    """The Schematron of a host schema (RELAX NG) as a schema of its own, with the host root's namespaces: its
    sch:ns, sch:phase, sch:pattern and xsl:key elements in document order, and the host root's own sch:let
    (copying only these, not a grammar such as tei_all's)."""
    schema = etree.Element(sch("schema"), nsmap=host.nsmap)
    schema.sourceline = host.sourceline
    kept = (sch("ns"), sch("phase"), sch("pattern"), XSL_KEY)
    for element in host.iter(*kept):
        if not any(ancestor.tag in kept for ancestor in element.iterancestors()):
            schema.append(_copy(element))
    schema.extend(_copy(let) for let in host.findall(sch("let")))
    return schema


def _as_iso(root: etree._Element) -> etree._Element:
    """A copy of the schema (lines kept), Schematron 1.5's namespace renamed to ISO's."""
    iso = _copy(root)
    if etree.QName(iso).namespace == SCH15_NS:
        for element in iso.iter(etree.Element):
            if etree.QName(element).namespace == SCH15_NS:
                element.tag = sch(etree.QName(element).localname)
    return iso


def _resolve_references(element: etree._Element, source: Path, chain: tuple[Path, ...], depth: int) -> None:
    """sch:include and sch:extends/@href under `element` (of the file `source`) replaced by what they name."""
    for reference in list(element.iter(sch("include"), sch("extends"))):
        if reference.tag == sch("extends") and reference.get("href") is None:
            continue
        parent = reference.getparent()
        if parent is None:
            continue
        target, target_file = _referenced(reference, source, chain, depth)
        replacement = list(target) if reference.tag == sch("extends") else [target]
        index = parent.index(reference)
        tail = reference.tail
        parent.remove(reference)
        for offset, node in enumerate(replacement):
            node = _copy(node)
            parent.insert(index + offset, node)
            if target_file != source and isinstance(node.tag, str):
                node.set(NS_ATTRIBUTE, json.dumps(_declared_namespaces(target)))
        if tail and replacement:
            last = parent[index + len(replacement) - 1]
            last.tail = (last.tail or "") + tail


def _referenced(reference, source: Path, chain, depth) -> tuple[etree._Element, Path]:
    href = reference.get("href") or ""
    parsed = urlparse(href)
    if parsed.scheme not in ("", "file") or depth > MAX_DEPTH:
        raise schema_error(
            f"cannot follow {href!r}: the validator reads local files only", source, reference.sourceline
        )
    target_file = (source.parent / unquote(parsed.path)).resolve() if parsed.path else source.resolve()
    if parsed.path and target_file in chain:
        raise schema_error(f"{href!r} includes itself", source, reference.sourceline)
    try:
        document = etree.parse(str(target_file), etree.XMLParser(resolve_entities=False, no_network=True))
    except (OSError, etree.XMLSyntaxError) as exc:
        raise schema_error(f"cannot read {href!r}: {exc}", source, reference.sourceline) from None
    target = _as_iso(document.getroot())
    if parsed.fragment:
        target = next(
            (e for e in target.iter() if parsed.fragment in (e.get(XML_ID), e.get("id"))),
            None,
        )
        if target is None:
            raise schema_error(f"{href!r}: no element has the id {parsed.fragment!r}", source, reference.sourceline)
    _resolve_references(target, target_file, (*chain, target_file), depth + 1)
    if reference.tag == sch("extends") and target.tag != sch("rule"):
        raise schema_error(f"sch:extends names {href!r}, which is not a rule", source, reference.sourceline)
    return target, target_file


def _declared_namespaces(element: etree._Element) -> dict[str, str]:
    root = element.getroottree().getroot()
    namespaces = {prefix: uri for prefix, uri in element.nsmap.items() if prefix}
    namespaces.update({ns.get("prefix"): ns.get("uri") for ns in root.iter(sch("ns"))})
    return namespaces


def _copy(node: etree._Element) -> etree._Element:
    """A copy of an element or other node, without its tail, its source lines kept."""
    copied = copy.deepcopy(node)
    copied.tail = None
    return copied


def _expand_abstract_rules(root: etree._Element, source: Path) -> None:
    """sch:extends/@rule replaced by the abstract rule's children (same pattern), abstract rules removed."""
    shared = {rule.get("id"): rule for rule in root.findall(f"{sch('rules')}/{sch('rule')}") if rule.get("id")}
    for pattern in root.iter(sch("pattern")):
        rules = {**shared, **{rule.get("id"): rule for rule in pattern.findall(sch("rule")) if rule.get("id")}}
        for rule in pattern.findall(sch("rule")):
            _expand_rule(rule, rules, source, ())
        for rule in pattern.findall(sch("rule")):
            if rule.get("abstract") == "true":
                pattern.remove(rule)
    for extends in root.iter(sch("extends")):  # outside any pattern's rules
        raise schema_error(f"sch:extends rule={extends.get('rule')!r} is not in a rule", source, extends.sourceline)


def _expand_rule(rule: etree._Element, rules: dict, source: Path, chain: tuple[str, ...]) -> None:
    for extends in rule.findall(sch("extends")):
        name = extends.get("rule")
        target = rules.get(name)
        if target is None:
            raise schema_error(
                f"sch:extends names the rule {name!r}, which is not an abstract rule of this pattern",
                source,
                extends.sourceline,
            )
        if target.get("abstract") != "true":
            raise schema_error(
                f"sch:extends names the rule {name!r}, which is not abstract", source, extends.sourceline
            )
        if name in chain:
            raise schema_error(f"the abstract rule {name!r} extends itself", source, extends.sourceline)
        _expand_rule(target, rules, source, (*chain, name))
        index = rule.index(extends)
        rule.remove(extends)
        for offset, child in enumerate(c for c in target if c.tag != sch("extends")):
            rule.insert(index + offset, _copy(child))


def _instantiate_abstract_patterns(root: etree._Element, source: Path) -> None:
    abstract = {p.get("id"): p for p in root.iter(sch("pattern")) if p.get("abstract") == "true"}
    instances: list[etree._Element] = []
    for pattern in list(root.iter(sch("pattern"))):
        name = pattern.get("is-a")
        if name is None:
            continue
        template = abstract.get(name)
        if template is None:
            raise schema_error(f"is-a names {name!r}, which is not an abstract pattern", source, pattern.sourceline)
        parameters = {p.get("name"): p.get("value", "") for p in pattern.findall(sch("param"))}
        instance = _copy(template)
        del instance.attrib["abstract"]
        for attribute in ("id", "is-a"):
            instance.attrib.pop(attribute, None)
        for attribute, value in pattern.attrib.items():
            if attribute not in ("is-a",):
                instance.set(attribute, value)
        for element in instance.iter():
            if isinstance(element.tag, str):
                for attribute, value in element.attrib.items():
                    if "$" in value:
                        element.set(attribute, _substituted(value, parameters))
        instance.tail = pattern.tail
        pattern.getparent().replace(pattern, instance)
        _instantiate_diagnostics(root, instance, parameters, len(instances))
        instances.append(instance)
    for pattern in abstract.values():
        if pattern.getparent() is not None:
            pattern.getparent().remove(pattern)


def _instantiate_diagnostics(root: etree._Element, instance: etree._Element, parameters: dict, number: int) -> None:
    """The sch:diagnostic elements an instance's assertions name, copied with the instance's parameters put
    in (ISO 2020: the params of an abstract pattern reach its diagnostics), under ids of their own."""
    diagnostics = {d.get("id"): d for d in root.iter(sch("diagnostic")) if d.get("id")}
    for assertion in instance.iter(sch("assert"), sch("report")):
        names = (assertion.get("diagnostics") or "").split()
        if not names or not parameters:
            continue
        renamed = []
        for name in names:
            if name not in diagnostics:
                renamed.append(name)
                continue
            copied = _copy(diagnostics[name])
            copied.set("id", f"{name}#{number}")
            for element in copied.iter(etree.Element):
                for attribute, value in element.attrib.items():
                    if "$" in value:
                        element.set(attribute, _substituted(value, parameters))
            diagnostics[name].getparent().append(copied)
            renamed.append(copied.get("id"))
        assertion.set("diagnostics", " ".join(renamed))


_PARAMETER = re.compile(r"\$([\w.-]+)")


def _substituted(value: str, parameters: dict[str, str]) -> str:
    """Each $name of a param replaced by its value; a name is read whole ($a never matches the start of $ab),
    and a $name no param gives (a variable of the pattern's lets) is kept."""
    return _PARAMETER.sub(lambda m: parameters.get(m.group(1), m.group(0)), value)
