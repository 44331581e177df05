"""How the benchmark scripts read and write their results: CSV files with
a header, and rows laid out as a Markdown table (the generated .md files)
or as aligned text (what a script prints)."""
import csv
import pathlib
import re


def read_csv(path):
    """The rows of a CSV file with a header, as dicts of strings."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(path, rows, fields):
    """Rows (dicts) as a CSV file with the header `fields`; keys not in it
    are left out."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def markdown(header, rows, align=None):
    """A Markdown table; `align`: a string of "l"/"r" a column (default all
    left). Cells are str()-ed."""
    rule = {"l": "---", "r": "---:"}
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(rule[a] for a in (align or "l" * len(header))) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def text(header, rows, align=None):
    """The same as aligned text, columns two spaces apart; `align` as for
    markdown() (default: numbers right, the rest left)."""
    cells = [[str(c) for c in r] for r in [header, *rows]]
    width = [max(len(r[i]) for r in cells) for i in range(len(header))]
    if align is None:
        align = "".join("r" if all(_number(r[i]) for r in cells[1:]) and len(cells) > 1 else "l"
                        for i in range(len(header)))
    fmt = lambda r: "  ".join(c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(r, width, align)).rstrip()
    return "\n".join(fmt(r) for r in cells)


def _number(s):
    try:
        float(s.rstrip("x%"))
        return True
    except ValueError:
        return False


def write_fragment(path, title, stamp_line, body):
    """A generated result as docs/results.md takes it in (`make results`):
    "# title", the stamp line (what made it, from which inputs, when and
    where), then `body`, a list of lines."""
    with open(path, "w") as f:
        f.write("\n".join([f"# {title}", "", stamp_line, "", *body]) + "\n")


STAMP = re.compile(r"^`[^`]+`: ")


def read_fragment(path):
    """(title, stamp line, body lines) of a fragment write_fragment wrote,
    None if there is none at `path`; a file that does not start "# title",
    blank, stamp line is an error (ValueError)."""
    path = pathlib.Path(path)
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    if len(lines) < 3 or not lines[0].startswith("# ") or lines[1] or not STAMP.match(lines[2]):
        raise ValueError(f"{path}: not a result fragment (wanted '# title', a blank line, then the stamp line "
                         "'`command`: ...' that scripts/results/stamp.py writes)")
    return lines[0][2:], lines[2], lines[3:]


def code(text_block):
    """Aligned text (text()) as the lines of a fenced block for a fragment."""
    return ["```", *text_block.splitlines(), "```"]
