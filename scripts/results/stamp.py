"""The line every generated table starts with: what made it, from which
inputs, when and where, so that a stale figure shows as one."""
import datetime
import os
import pathlib
import platform
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
# What a result's figures are made from: directories whose every change may
# move them. "!DIR" leaves DIR out: no simulated SoC reads hw/boards (the
# models' cache key leaves it out too: scripts/lib.sh, hw_key), and a board's
# edit does not make the SoC's figures stale. A result made on a board names
# its paths itself (scripts/gatesim.py).
INPUTS = ("hw", "sim", "sw", "!hw/boards")
# what a stamp that names no paths was made from (the stamps before they did)
UNNAMED = ("hw", "sim", "sw")
CHANGED = re.compile(r"the last commit to change (.+?);")


def pathspecs(paths):
    """`paths` as git takes them ("!DIR": DIR excluded)."""
    return [f":(exclude){p[1:]}" if p.startswith("!") else p for p in paths]


def describe(paths):
    """`paths` in a stamp's words: "hw/, sim/, sw/ but not hw/boards/"."""
    kept = ", ".join(f"{p}/" for p in paths if not p.startswith("!"))
    left = ", ".join(f"{p[1:]}/" for p in paths if p.startswith("!"))
    return kept + (f" but not {left}" if left else "")


def stamped_paths(line):
    """The paths a stamp line names (describe() read back), UNNAMED if it
    names none: what page.py checks for commits since the stamp's."""
    m = CHANGED.search(line)
    if not m:
        return UNNAMED
    kept, _, left = m[1].partition(" but not ")
    return (tuple(p.strip().rstrip("/") for p in kept.split(","))
            + tuple("!" + p.strip().rstrip("/") for p in left.split(",") if p.strip()))


def inputs_rev(paths=INPUTS):
    """(the last commit that changed `paths`, whether the work tree differs
    from HEAD there); "?" outside a git checkout."""
    git = lambda *a: subprocess.run(["git", "-C", str(ROOT), *a], capture_output=True, text=True)
    rev = git("log", "-1", "--format=%h", "--", *pathspecs(paths)).stdout.strip() or "?"
    return rev, git("diff", "--quiet", "HEAD", "--", *pathspecs(paths)).returncode != 0


def stamp(command, paths=INPUTS, extra="", rev=None):
    """"`command`: inputs as of REV, the last commit to change hw/, sim/,
    sw/ but not hw/boards/; DATE on MACHINE, N cores" and `extra`. `rev`:
    inputs_rev(paths) as taken when the run began (a long run outlives
    commits); now if None."""
    rev, dirty = rev or inputs_rev(paths)
    return (f"`{command}`: inputs as of {rev}{' (modified)' if dirty else ''}, the last commit to change "
            f"{describe(paths)}; "
            f"{datetime.date.today()} on {platform.machine()}, {os.cpu_count()} cores{extra}.")


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 2:
        sys.exit("usage: stamp.py COMMAND   (prints the stamp line of a result COMMAND makes now)")
    print(stamp(sys.argv[1]))
