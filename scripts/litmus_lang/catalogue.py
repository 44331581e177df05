"""python3 -m litmus_lang.catalogue [--check FILE | --write FILE] : the table of litmus tests (tests/litmus/)
that docs/litmus.md carries between its CATALOGUE markers, made from each
test's own name, model, `doc` lines and claims. With --check, exits 1 when
FILE's table is not the one the tests make now (make generated rewrites it)."""
import pathlib
import sys

from litmus_lang import show
from litmus_lang.judge import tests

BEGIN, END = "<!-- CATALOGUE BEGIN (scripts/litmus_lang/catalogue.py) -->", "<!-- CATALOGUE END -->"


def table():
    rows = ["| test | style | what it shows | forbidden | weak (allowed) |", "|---|---|---|---|---|"]
    for t in tests().values():
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
        raise SystemExit("usage: python3 -m litmus_lang.catalogue [--check FILE | --write FILE]")


if __name__ == "__main__":
    main()
