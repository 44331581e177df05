"""scripts/results/tables.py, which the table writers share: a CSV round
trip, a Markdown table, and aligned text with numbers to the right."""
from results import tables


def test_csv_round_trip_leaves_out_unknown_keys(tmp_path):
    tables.write_csv(tmp_path / "t.csv", [{"a": 1, "b": "x", "extra": 9}], ["a", "b"])
    assert tables.read_csv(tmp_path / "t.csv") == [{"a": "1", "b": "x"}]


def test_markdown_and_text():
    assert tables.markdown(["name", "n"], [["x", 1]], align="lr") == ["| name | n |", "|---|---:|", "| x | 1 |"]
    assert tables.text(["name", "cycles"], [["long name", 5], ["y", 1200]]).splitlines() == [
        "name       cycles", "long name       5", "y            1200"]
