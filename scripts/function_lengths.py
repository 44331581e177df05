#!/usr/bin/env python3
"""function_lengths.py [--max N] [PATH...] : the functions and constructors
over N lines (150) in the project's Python, C, C++ and Scala, longest first,
as "LINES PATH:LINE NAME"; exits 1 if there is one.

A function runs from its first line (the `def`, the signature) to its last;
a Scala class's constructor is the lines of its body outside its own
methods and nested classes, as is an anonymous class's (`new
LazyModuleImp(this) { ... }`). Python from its syntax tree; C, C++ and
Scala by matching braces outside comments and strings, which is exact for
the house style (a return type on the line before the name counts). Third-party source is not in the tree (patch series are not
read)."""
import argparse
import ast
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
TREES = ("hw", "sim", "sw", "tests", "scripts", "fpga")
SKIP = re.compile(r"(^|/)(build|out|__pycache__|node_modules)(/|$)")


def python(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            yield node.end_lineno - start + 1, node.lineno, node.name


def code_only(text):
    """`text` with comments and string and character literals blanked out
    (newlines kept), so that braces can be matched."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == "'" and j - i > 3:  # a Scala symbol or a lone quote, not a character literal
                out.append(c)
                i += 1
                continue
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blocks(text):
    """[(line of "{", line of its "}", the code before "{" on its statement)]."""
    found, stack, line, last_break = [], [], 1, 0
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[last_break:i]
            stack.append((line, head, i))
            last_break = i + 1
        elif c == "}":
            if stack:
                start, head, _ = stack.pop()
                found.append((start, line, head))
            last_break = i + 1
        elif c == ";":
            last_break = i + 1
    return found


C_FUNC = re.compile(r"(\w+)\s*\([^;{}]*\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>]+\s*)?$")
C_NOT = re.compile(r"^\s*(if|for|while|switch|do|else|return|struct|union|enum|class|namespace)\b")


def c_like(path):
    text = code_only(path.read_text(errors="replace"))
    for start, end, head in blocks(text):
        h = head.rstrip()  # positions in h are positions in head
        m = C_FUNC.search(h)
        final_line = h.splitlines()[-1] if h else ""
        if m and not C_NOT.match(final_line) and "=" not in h.split("(")[0]:
            # from the line of the name, or the one before if the return type stands alone there
            before = h[:m.start()].split("\n")
            prev = before[-2].strip() if len(before) > 1 else ""
            lines_up = head[m.start():].count("\n") + (1 if re.fullmatch(r"[\w\s:*&<>,]+", prev or "#") else 0)
            first = start - lines_up
            yield end - first + 1, first, m.group(1)


SCALA_DEF = re.compile(r"\bdef\s+(\w+)")
SCALA_CLASS = re.compile(r"\b(class|object|trait)\s+(\w+)|\bnew\s+([\w.]+)")


def last(pattern, text):
    """The last match of `pattern` in `text`, or None."""
    found = None
    for found in pattern.finditer(text):
        pass
    return found


def scala(path):
    text = code_only(path.read_text(errors="replace"))
    found = blocks(text)
    for start, end, head in found:
        h = head
        d, k = last(SCALA_DEF, h), last(SCALA_CLASS, h)
        if d and (not k or d.start() > k.start()):
            first = start - h[d.start():].count("\n")
            yield end - first + 1, first, d.group(1)
        elif k:
            first = start - h[k.start():].count("\n")
            # the constructor: the body less the methods and classes nested in it
            inner = [(s, e) for s, e, hh in found if start < s and e < end and
                     (SCALA_DEF.search(hh) or SCALA_CLASS.search(hh))]
            outer = [(s, e) for s, e in inner if not any(s2 < s and e < e2 for s2, e2 in inner)]
            lines = (end - start - 1) - sum(e - s + 1 for s, e in outer)
            yield lines, first, k.group(2) or f"new {k.group(3)}"


KINDS = {".py": python, ".c": c_like, ".h": c_like, ".cpp": c_like, ".cc": c_like, ".scala": scala}


def offenders(limit, paths):
    out = []
    for top in paths:
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for f in files:
            rel = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
            if f.suffix in KINDS and f.is_file() and not SKIP.search(str(rel)):
                out += [(n, f"{rel}:{line}", name) for n, line, name in KINDS[f.suffix](f) if n > limit]
    return sorted(out, key=lambda o: (-o[0], o[1]))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=150)
    ap.add_argument("paths", nargs="*", type=pathlib.Path)
    opts = ap.parse_args(argv)
    found = offenders(opts.max, [p.resolve() for p in opts.paths] or [ROOT / t for t in TREES])
    for n, where, name in found:
        print(f"{n:5} {where} {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
