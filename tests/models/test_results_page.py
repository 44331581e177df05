"""docs/results.md is made by `make results` (scripts/results/page.py) from
the fragments in docs/results/, each stamped by the command that wrote it:
the committed page must be what the committed fragments make, every
fragment must carry its stamp, and a fragment no section takes is refused."""
import shutil
import subprocess
import sys

import pytest

from harness import ROOT

from results import page, tables


def test_the_committed_page_is_what_the_fragments_make():
    run = subprocess.run([sys.executable, ROOT / "scripts/results/page.py", "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.fixture
def results(tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(ROOT / "docs/results", copy, ignore=shutil.ignore_patterns("*-jobs"))
    return copy


def test_a_changed_figure_makes_another_page(results):
    assert page.render(page.fragments(results), results) == (ROOT / "docs/results.md").read_text()
    name = next(n for n, _, _ in page.SECTIONS if (results / f"{n}.md").exists())
    frag = results / f"{name}.md"
    frag.write_text(frag.read_text() + "| one more row |\n")
    assert page.render(page.fragments(results), results) != (ROOT / "docs/results.md").read_text()


def test_a_fragment_without_its_stamp_is_refused(results):
    tables.write_fragment(results / "demo.md", "A table", "measured by hand", ["| 1 |"])
    with pytest.raises(ValueError, match="not a result fragment"):
        page.render(page.fragments(results), results)


def test_a_fragment_no_section_takes_is_named(results):
    tables.write_fragment(results / "new-bench.md", "New", "`make new-bench`: today", [])
    assert page.unlisted(results) == ["new-bench"]


def test_a_fragment_from_a_writer_is_taken_whole(results):
    tables.write_fragment(results / "sim-speed.md", "Speed", "`make bench-sim`: inputs as of abc1234; 2026-01-01",
                          ["## detail", "x"])
    text = page.render(page.fragments(results), results)
    assert "| [Speed](#speed) | `make bench-sim` | abc1234 | 2026-01-01 |" in text
    assert "\n### detail\nx\n" in text  # its headings one level down


def test_a_results_further_figures_are_shown_after_its_own(results):
    """NAME-*.png beside NAME.png (linux-bench's scaling plot) are on the
    page after it, and only under their own result."""
    name = next(n for n, _, _ in page.SECTIONS if (results / f"{n}.png").exists())
    (results / f"{name}-scaling.png").write_bytes(b"png")
    text = page.render(page.fragments(results), results)
    own, more = text.index(f"(results/{name}.png)"), text.index(f"(results/{name}-scaling.png)")
    assert own < more and text.count(f"-scaling.png)") == 1 + (ROOT / "docs/results.md").read_text().count("-scaling.png)")


def test_a_longer_results_figure_is_not_taken_as_a_shorter_ones(results):
    """linux-demo-no-nonleaf.png is that section's figure, not one of
    linux-demo's further figures."""
    (results / "linux-demo-no-nonleaf.png").write_bytes(b"png")
    assert "linux-demo-no-nonleaf.png" not in [p.name for p in page.figures("linux-demo", results)]
    assert [p.name for p in page.figures("linux-demo-no-nonleaf", results)] == ["linux-demo-no-nonleaf.png"]
