#!/usr/bin/env python3
"""catalogue.py [--check FILE] : the table of litmus tests (tests/litmus/)
that docs/litmus.md carries between its CATALOGUE markers, made from each
test's own name, model, `doc` lines and claims. With --check, exits 1 when
FILE's table is not the one the tests make now (make generated rewrites it)."""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "models"))
from litmus import load, show  # noqa: E402

BEGIN, END = "<!-- CATALOGUE BEGIN (tests/litmus/catalogue.py) -->", "<!-- CATALOGUE END -->"


def table():
    rows = ["| test | style | what it shows | forbidden | weak (allowed) |", "|---|---|---|---|---|"]
    for path in sorted(HERE.glob("*.litmus")):
        t = load(path)
        cell = lambda conds: "<br>".join(f"`{show(c)}`" for c in conds) or "-"
        rows.append(f"| {t.name} | {t.model} | {t.doc} | {cell(t.forbidden)} | {cell(t.weak)} |")
    return "\n".join(rows) + "\n"


def with_table(doc):
    head, sep, rest = doc.partition(BEGIN + "\n")
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise SystemExit(f"error: the document has no {BEGIN} ... {END} markers")
    return head + BEGIN + "\n" + table() + END + tail


def main():
    if len(sys.argv) == 3 and sys.argv[1] in ("--check", "--write"):
        path = pathlib.Path(sys.argv[2])
        doc = path.read_text()
        fresh = with_table(doc)
        if sys.argv[1] == "--write":
            path.write_text(fresh)
        elif fresh != doc:
            print(f"error: {path}'s litmus table is stale: run make generated", file=sys.stderr)
            sys.exit(1)
    elif len(sys.argv) == 1:
        sys.stdout.write(table())
    else:
        raise SystemExit("usage: catalogue.py [--check FILE | --write FILE]")


if __name__ == "__main__":
    main()
