"""scripts/results/stamp.py in a scratch git repository: the stamp names
the last commit that changed the inputs (not a later one elsewhere) and
says when the work tree differs from it there."""
import subprocess

from harness import ROOT

from results import stamp


def test_the_stamp_names_the_inputs_commit(tmp_path, monkeypatch):
    git = lambda *a: subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *a],
                                    check=True, capture_output=True, text=True).stdout.strip()
    git("init", "-q")
    (tmp_path / "hw").mkdir()
    (tmp_path / "hw/unit.scala").write_text("a\n")
    git("add", "-A")
    git("commit", "-qm", "hw")
    inputs = git("rev-parse", "--short", "HEAD")
    (tmp_path / "README.md").write_text("b\n")
    git("add", "-A")
    git("commit", "-qm", "docs")
    monkeypatch.setattr(stamp, "ROOT", tmp_path)
    assert stamp.inputs_rev(("hw",)) == (inputs, False)
    line = stamp.stamp("make x", ("hw",), ": 3 runs")
    assert line.startswith(f"`make x`: inputs as of {inputs}, the last commit to change hw/; ") and line.endswith(
        " cores: 3 runs."), line
    (tmp_path / "hw/unit.scala").write_text("c\n")
    assert stamp.inputs_rev(("hw",)) == (inputs, True)
    assert f"inputs as of {inputs} (modified)," in stamp.stamp("make x", ("hw",))
