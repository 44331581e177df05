"""The line every generated table starts with: what made it, from which
inputs, when and where, so that a stale figure shows as one."""
import datetime
import os
import pathlib
import platform
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
INPUTS = ("hw", "sim", "sw")


def inputs_rev(paths=INPUTS):
    """(the last commit that changed `paths`, whether the work tree differs
    from HEAD there); "?" outside a git checkout."""
    git = lambda *a: subprocess.run(["git", "-C", str(ROOT), *a], capture_output=True, text=True)
    rev = git("log", "-1", "--format=%h", "--", *paths).stdout.strip() or "?"
    return rev, git("diff", "--quiet", "HEAD", "--", *paths).returncode != 0


def stamp(command, paths=INPUTS, extra="", rev=None):
    """"`command`: inputs as of REV, the last commit to change hw/, sim/,
    sw/; DATE on MACHINE, N cores" and `extra`. `rev`: inputs_rev(paths) as
    taken when the run began (a long run outlives commits); now if None."""
    rev, dirty = rev or inputs_rev(paths)
    where = ", ".join(f"{p}/" for p in paths)
    return (f"`{command}`: inputs as of {rev}{' (modified)' if dirty else ''}, the last commit to change {where}; "
            f"{datetime.date.today()} on {platform.machine()}, {os.cpu_count()} cores{extra}.")


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 2:
        sys.exit("usage: stamp.py COMMAND   (prints the stamp line of a result COMMAND makes now)")
    print(stamp(sys.argv[1]))
