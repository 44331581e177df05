"""No function or constructor over 150 lines (scripts/function_lengths.py),
but for the ones listed here, which may only shrink until they go."""
import subprocess
import sys

from harness import ROOT

import function_lengths

LIMIT = 150
WAITING = {}


def test_no_function_over_the_limit_but_those_waiting():
    found = function_lengths.offenders(LIMIT, [ROOT / t for t in function_lengths.TREES])
    over = {(where.rsplit(":", 1)[0], name): n for n, where, name in found}
    grown = {k: n for k, n in over.items() if n > WAITING.get(k, LIMIT)}
    assert not grown, f"over {LIMIT} lines (or longer than when listed): {grown}"


def test_the_checker_sees_each_language(tmp_path):
    body = "\n".join(f"    x = {i}" for i in range(150))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n\ndef short():\n    return 1\n")
    (tmp_path / "long.c").write_text("static int f(int a)\n{\n" + "  a++; /* } */\n" * 150 + '  return a; /* "{" */\n}\n')
    (tmp_path / "Unit.scala").write_text(
        "class UnitImp(n: Int) extends Module {\n" + "  val a = 1\n" * 140 +
        "  def helper(x: Int): Int = {\n" + "    x + 1\n" * 30 + "  }\n" + "  val b = \"}\"\n" * 20 + "}\n")
    found = {(name, n) for n, _, name in function_lengths.offenders(LIMIT, [tmp_path])}
    # the Python function (151 lines with its def), the C function (154 with
    # its signature), the class's constructor without its method (160)
    assert found == {("long", 151), ("f", 154), ("UnitImp", 160)}
    run = subprocess.run([sys.executable, ROOT / "scripts/function_lengths.py", tmp_path], capture_output=True, text=True)
    assert run.returncode == 1 and "long.py:1 long" in run.stdout
