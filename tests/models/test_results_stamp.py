"""scripts/results/stamp.py and page.py's staleness in a scratch git
repository: the stamp names the last commit that changed the inputs (not a
later one elsewhere, nor one to a path it leaves out) and says when the
work tree differs from it there; a fragment is stale when a path its stamp
names changed since, fpga/ included where the stamp names it."""
import subprocess

from harness import ROOT

from results import page, stamp


def scratch_repo(tmp_path, monkeypatch):
    """A git repository in tmp_path that stamp.py and page.py take for the
    project's; returns a function running git there."""
    git = lambda *a: subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *a],
                                    check=True, capture_output=True, text=True).stdout.strip()
    git("init", "-q")
    monkeypatch.setattr(stamp, "ROOT", tmp_path)
    monkeypatch.setattr(page, "ROOT", tmp_path)
    return git


def commit(git, root, path, text):
    """`path` (under `root`) written with `text` and committed; its short hash."""
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)
    git("add", "-A")
    git("commit", "-qm", path)
    return git("rev-parse", "--short", "HEAD")


def test_the_stamp_names_the_inputs_commit(tmp_path, monkeypatch):
    git = scratch_repo(tmp_path, monkeypatch)
    inputs = commit(git, tmp_path, "hw/unit.scala", "a\n")
    commit(git, tmp_path, "README.md", "b\n")
    assert stamp.inputs_rev(("hw",)) == (inputs, False)
    line = stamp.stamp("make x", ("hw",), ": 3 runs")
    assert line.startswith(f"`make x`: inputs as of {inputs}, the last commit to change hw/; ") and line.endswith(
        " cores: 3 runs."), line
    (tmp_path / "hw/unit.scala").write_text("c\n")
    assert stamp.inputs_rev(("hw",)) == (inputs, True)
    assert f"inputs as of {inputs} (modified)," in stamp.stamp("make x", ("hw",))


def test_a_boards_edit_leaves_the_socs_figures_current_and_a_stamp_is_judged_by_its_own_paths(tmp_path, monkeypatch):
    """The SoC's inputs (stamp.INPUTS) leave hw/boards out: a commit there
    moves neither their commit nor their staleness. A stamp is read back as
    the paths it names, and page.stale() counts commits to those: a board
    result naming fpga/ is stale after an fpga/ commit, the SoC's not; a
    stamp of before stamps named paths is judged by hw/, sim/, sw/."""
    git = scratch_repo(tmp_path, monkeypatch)
    soc = commit(git, tmp_path, "hw/soc/Soc.scala", "a\n")
    commit(git, tmp_path, "hw/boards/Boards.scala", "b\n")
    assert stamp.inputs_rev() == (soc, False)
    board = stamp.inputs_rev(("hw", "sim", "sw", "fpga"))[0]
    assert board != soc
    for paths in [stamp.INPUTS, ("hw", "sim", "sw", "fpga"), stamp.INPUTS + ("scripts",)]:
        assert sorted(stamp.stamped_paths(stamp.stamp("make x", paths, "; one run"))) == sorted(paths)
    made = {"soc": ("t", stamp.stamp("make demo"), []),
            "board": ("t", stamp.stamp("make gatesim", ("hw", "sim", "sw", "fpga")), []),
            "old": ("t", f"`make bench-sim`: inputs as of {soc}; 2026-11-26 on x86_64, 2 cores.", [])}
    assert page.stale(made) == [("old", soc, 1, "hw/, sim/, sw/")]
    commit(git, tmp_path, "fpga/top.v", "c\n")
    assert [s[0] for s in page.stale(made)] == ["board", "old"]
    assert page.stale(made)[0] == ("board", board, 1, "hw/, sim/, sw/, fpga/")
