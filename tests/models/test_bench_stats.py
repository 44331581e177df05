"""scripts/results/stats.py on samples with a known answer: an A/A
comparison (two samples of one distribution) has an interval around 1 and
no significant p; a 10% slower configuration has an interval that excludes
1 and a small p; Holm's adjustment matches its textbook example; failed
runs are counted, not dropped; too few samples give no interval."""
import math

import numpy as np

from results import stats


def draw(seed, scale, n=12):
    return list(np.random.default_rng(seed).normal(1e6 * scale, 2e4, n))


def by(rows, bench, config):
    return next(r for r in rows if r.bench == bench and r.config == config)


def test_a_a_interval_covers_one_and_a_real_difference_does_not():
    samples = {("b", "stock"): draw(1, 1.0), ("b", "stock-again"): draw(2, 1.0), ("b", "slow"): draw(3, 1.1)}
    rows = stats.compare(samples, "stock")
    aa, slow = by(rows, "b", "stock-again"), by(rows, "b", "slow")
    assert aa.ci_low < 1 < aa.ci_high and aa.p > 0.05, aa
    assert 1.05 < slow.ci_low < 1.1 < slow.ci_high < 1.15 and slow.p < 0.001, slow
    assert math.isnan(by(rows, "b", "stock").ratio)


def test_failed_runs_are_counted_and_small_samples_get_no_interval():
    samples = {("b", "stock"): draw(1, 1.0, 2), ("b", "unit"): draw(2, 0.9, 2)}
    rows = stats.compare(samples, "stock", failed={("b", "unit"): 3})
    unit = by(rows, "b", "unit")
    assert unit.n == 2 and unit.failed == 3 and 0.85 < unit.ratio < 0.95
    assert math.isnan(unit.ci_low) and math.isnan(unit.p)


def test_holm_matches_the_textbook():
    # Holm (1979)-style example: p = 0.01, 0.04, 0.03, 0.005 over m = 4
    assert np.allclose(stats.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])


def test_holm_is_applied_across_benchmarks():
    samples = {}
    for i, b in enumerate(("x", "y", "z")):
        samples[(b, "stock")] = draw(10 * i, 1.0)
        samples[(b, "unit")] = draw(10 * i + 1, 0.97)
    rows = [r for r in stats.compare(samples, "stock") if r.config == "unit"]
    assert all(r.p_holm >= r.p for r in rows) and max(r.p_holm for r in rows) <= 1
    assert sorted(r.p_holm for r in rows) == sorted(stats.holm([r.p for r in rows]))


def test_gap_recovered_and_its_interval():
    """A configuration 90% of the way from the baseline to the bound: the
    share's interval covers 0.9 and excludes 0.5; the baseline against
    itself recovers none; no bound above the baseline gives no share."""
    rng = np.random.default_rng(3)
    base, bound = rng.normal(100, 1, 10), rng.normal(200, 1, 10)
    near = rng.normal(190, 1, 10)
    g = stats.gap(base, near, bound)
    assert 0.85 < g.share < 0.95 and g.ci_low < 0.9 < g.ci_high and g.ci_low > 0.5, g
    none = stats.gap(base, rng.normal(100, 1, 10), bound)
    assert abs(none.share) < 0.05 and none.ci_low < 0 < none.ci_high, none
    assert math.isnan(stats.gap(base, near, base).share)
    few = stats.gap(base[:2], near, bound)
    assert not math.isnan(few.share) and math.isnan(few.ci_low)


def test_groups_that_differ_and_groups_that_do_not():
    """Four boots of two samples each: drawn from one distribution, the
    test finds nothing and the spread between the boots' medians is of the
    order of the spread within them; with each boot's level shifted by 5%,
    the boots differ (a small p) and the spread between is several times
    the spread within."""
    rng = np.random.default_rng(5)
    same = [rng.normal(100, 1, 2) for _ in range(4)]
    g = stats.groups(same)
    assert g.n == 4 and g.p > 0.05 and g.between < 0.05 and g.within < 0.05, g
    shifted = [rng.normal(100 * (1 + 0.05 * i), 0.5, 2) for i in range(4)]
    g = stats.groups(shifted)
    assert g.p < 0.05 and g.between > 0.12 and g.between > 5 * g.within, g
    assert stats.groups([[1.0, 1.0], [1.0, 1.0]]).p == 1.0
    assert math.isnan(stats.groups([[1.0], [2.0]]).p) and stats.groups([[], []]).n == 0
