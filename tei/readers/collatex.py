"""CollateX JSON into the edition model: its witness input (-> Work) and its alignment-table output (-> Edition).

Witness input is `{"witnesses": [{"id", "content"} | {"id", "tokens": [{"t": ...}, ...]}]}`, or a list
of such collations (as in CollateX's Darwin sample: one work each). Pre-tokenised witnesses keep their
tokens as they are given: they are not cut again, and a token's `n` (CollateX's normalised form) is its
comparison key, as in CollateX. An alignment table is either the
Python port's `{"witnesses": [sigla], "table": [one row of cells per witness]}` or the Java tools'
`{"sigils": [sigla], "table": [one row of cells per rank]}`; a cell is null (a gap) or a list of tokens,
each a string or an object whose "t" is the token's text. Tokens are joined as they stand when any of
them carries whitespace (CollateX's own tokenizer keeps it); bare tokens get one space after each.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from tei.diagnostics import error
from tei.errors import InvalidInputError
from tei.model import Edition, Reading, VariationUnit, Witness, Work
from tei.xmlio import read_bytes

NCNAME = re.compile(r"^[A-Za-z_][\w.-]*$")


def load_json(path: Path | str) -> object:
    data = read_bytes(path, "CollateX JSON file")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InvalidInputError(error("CX001", f"not UTF-8 (byte {exc.start})", path)) from None
    except json.JSONDecodeError as exc:
        raise InvalidInputError(error("CX001", f"not JSON: {exc.msg}", path, exc.lineno, exc.colno)) from None
    except RecursionError:  # arrays or objects nested deeper than the parser goes
        raise InvalidInputError(error("CX002", "the JSON is nested too deeply to be CollateX input", path)) from None


def witness_id(siglum: str) -> str:
    """An xml:id for a siglum: the siglum itself when it is one, else 'w' + its safe characters."""
    return siglum if NCNAME.match(siglum) else "w" + re.sub(r"[^\w.-]", "_", siglum)


def _problem(path, message: str) -> InvalidInputError:
    return InvalidInputError(error("CX002", message, path, hint="see docs/interoperability.md for the shapes read"))


def token_text(token, path) -> str:
    if isinstance(token, str):
        return token
    if isinstance(token, dict) and isinstance(token.get("t"), str):
        return token["t"]
    raise _problem(path, f'a token must be a string or an object with a string "t", not {json.dumps(token)[:60]}')


def join_tokens(texts: list[str], bare: bool) -> str:
    return "".join(text + " " for text in texts) if bare else "".join(texts)


def is_bare(tokens: list[str]) -> bool:
    return bool(tokens) and not any(text != text.rstrip() or text != text.lstrip() for text in tokens)


def is_alignment_table(data) -> bool:
    return isinstance(data, dict) and "table" in data


def read_witness_input(path: Path | str) -> tuple[Work, ...]:
    """Each collation of a CollateX witness-input file as a Work (titled after the file)."""
    return witness_input_works(load_json(path), path)


def witness_input_works(data, path) -> tuple[Work, ...]:
    collations = data if isinstance(data, list) else [data]
    name = Path(str(path)).stem
    return tuple(_work(c, f"{name}-{n + 1}" if len(collations) > 1 else name, path) for n, c in enumerate(collations))


def _work(collation, name: str, path) -> Work:
    if not isinstance(collation, dict) or not isinstance(collation.get("witnesses"), list):
        raise _problem(path, 'witness input needs {"witnesses": [...]}')
    witnesses = []
    for entry in collation["witnesses"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise _problem(path, 'each witness needs a string "id"')
        if isinstance(entry.get("content"), str):
            text = entry["content"]
        elif isinstance(entry.get("tokens"), list):
            witnesses.append(_pretokenised(entry, path))
            continue
        else:
            raise _problem(path, f'witness \'{entry["id"]}\' has neither "content" nor "tokens"')
        witnesses.append(Witness(witness_id(entry["id"]), entry["id"], text, source=str(path)))
    if len({w.id for w in witnesses}) != len(witnesses):
        raise _problem(path, "two witnesses have the same id")
    return Work(re.sub(r"[^\w.-]", "-", name), name, witnesses=tuple(witnesses))


def _pretokenised(entry: dict, path) -> Witness:
    """A witness given as CollateX tokens: its text is the tokens joined (see join_tokens), and it keeps them
    as its tokens, each with its normalised form `n` when it has one (the comparison key), so that the
    collation neither cuts them again nor compares them otherwise than CollateX would."""
    texts = [token_text(t, path) for t in entry["tokens"]]
    bare = is_bare(texts)
    pieces = tuple(
        (
            text + " " if bare else text,
            token["n"] if isinstance(token, dict) and isinstance(token.get("n"), str) else None,
        )
        for text, token in zip(texts, entry["tokens"])
    )
    text = "".join(piece for piece, _ in pieces)
    return Witness(witness_id(entry["id"]), entry["id"], text, source=str(path), tokens=pieces)


def read_alignment_table(path: Path | str) -> Edition:
    """A CollateX alignment table as an edition: agreeing columns are shared text, the others units."""
    return alignment_table_edition(load_json(path), path)


def alignment_table_edition(data, path) -> Edition:
    sigla, columns = _columns(data, path)
    texts = [[[token_text(t, path) for t in cell or []] for cell in column] for column in columns]
    bare = is_bare([t for column in texts for cell in column for t in cell])
    cells = [[join_tokens(cell, bare) for cell in column] for column in texts]
    ids = [witness_id(s) for s in sigla]
    work = Work(
        re.sub(r"[^\w.-]", "-", Path(str(path)).stem),
        Path(str(path)).stem,
        witnesses=tuple(
            Witness(i, s, "".join(column[n] for column in cells), source=str(path))
            for n, (i, s) in enumerate(zip(ids, sigla))
        ),
    )
    return Edition(work, "exact", tuple(_body(cells, ids)))  # CollateX compared the tokens already


def _columns(data, path) -> tuple[list[str], list[list]]:
    """(sigla, columns of cells, one cell per witness), from either layout."""
    if not isinstance(data, dict) or not isinstance(data.get("table"), list):
        raise _problem(path, 'an alignment table needs {"table": [...]} with "witnesses" or "sigils"')
    table = data["table"]
    if isinstance(data.get("sigils"), list):  # Java: one row per rank
        sigla, columns = data["sigils"], table
    elif isinstance(data.get("witnesses"), list) and all(isinstance(w, str) for w in data["witnesses"]):
        sigla = data["witnesses"]  # Python port: one row per witness
        if len(table) != len(sigla):
            raise _problem(path, f"{len(sigla)} witnesses but {len(table)} rows in the table")
        columns = [list(column) for column in zip(*table)] if table else []
        if any(len(row) != len(columns) for row in table):
            raise _problem(path, "the rows of the table have different lengths")
    else:
        raise _problem(path, 'an alignment table names its witnesses in "witnesses" (a list of sigla) or "sigils"')
    if any(not isinstance(column, list) or len(column) != len(sigla) for column in columns):
        raise _problem(path, f"every rank of the table needs one cell for each of the {len(sigla)} witnesses")
    return [str(s) for s in sigla], columns


def _body(cells: list[list[str]], ids: list[str]) -> list:
    body: list = []
    for column in cells:
        if len(set(column)) == 1:
            if body and isinstance(body[-1], str):
                body[-1] += column[0]
            elif column[0]:
                body.append(column[0])
            continue
        body.append(_unit(column, ids, sum(isinstance(part, VariationUnit) for part in body) + 1))
    return body


def _unit(column: list[str], ids: list[str], number: int) -> VariationUnit:
    by_text: dict[str, list[str]] = defaultdict(list)
    for witness, text in zip(ids, column):
        by_text[text].append(witness)
    readings = tuple(
        Reading(tuple(witnesses), (text,) if text else (), _reading_type(text, column))
        for text, witnesses in by_text.items()
    )
    return VariationUnit(f"app-{number:04d}", None, readings)


def _reading_type(text: str, column: list[str]) -> str:
    if not text:
        return "omission"
    return "addition" if all(other in ("", text) for other in column) else "substitution"
