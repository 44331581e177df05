"""Statistics for benchmarks with several samples per configuration, from
scipy.stats (no hand-written resampling):

- per benchmark and configuration: the number of samples, the median, the
  spread (min, max);
- against a baseline configuration: the ratio of medians with its 95%
  bootstrap confidence interval (BCa, scipy.stats.bootstrap over the two
  independent samples), and the two-sided Mann-Whitney U test's p value,
  Holm-corrected across the benchmarks compared (the step-down
  correction is the one thing computed here: scipy has no Holm);
- against a baseline and a bound: the share of the gap between them a
  configuration recovers, (median - baseline's) / (bound's - baseline's),
  with its 95% BCa interval over the three independent samples;
- failed samples (a run that did not pass) are counted beside them, never
  dropped silently;
- samples in groups (say, the runs forked from one boot): whether the
  groups differ (one-way ANOVA's F test p: a rank test such as
  Kruskal-Wallis cannot reach 0.05 with two samples in each of four
  groups, however far apart they are), and the spread between the groups'
  medians beside the spread within them.

A ratio of medians below 1 means the configuration's median is smaller
than the baseline's (fewer cycles: faster; fewer loops: slower).
"""
import dataclasses
import math

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
RESAMPLES = 9999
MIN_SAMPLES = 3  # below this no interval or test is given


@dataclasses.dataclass
class Comparison:
    bench: str
    config: str
    n: int
    failed: int
    median: float
    low: float
    high: float
    ratio: float = math.nan       # of medians, config / baseline
    ci_low: float = math.nan
    ci_high: float = math.nan
    p: float = math.nan           # Mann-Whitney U, two-sided
    p_holm: float = math.nan      # Holm-corrected across the benchmarks


def ratio_of_medians(base, other, axis=-1):
    return np.median(other, axis=axis) / np.median(base, axis=axis)


def compare(samples, baseline, failed=None, seed=0):
    """samples: {(bench, config): [values]} of passing runs; failed:
    {(bench, config): count}. Returns [Comparison], one per (bench, config),
    those of the baseline with no ratio."""
    failed = failed or {}
    rng = np.random.default_rng(seed)
    out = []
    for (bench, config), values in sorted(samples.items()):
        v = np.asarray(values, dtype=float)
        c = Comparison(bench, config, len(v), failed.get((bench, config), 0),
                       float(np.median(v)) if len(v) else math.nan,
                       float(v.min()) if len(v) else math.nan, float(v.max()) if len(v) else math.nan)
        base = np.asarray(samples.get((bench, baseline), []), dtype=float)
        if config != baseline and len(v) and len(base):
            c.ratio = float(ratio_of_medians(base, v))
            if len(v) >= MIN_SAMPLES and len(base) >= MIN_SAMPLES:
                if np.ptp(np.concatenate([base, v])) == 0:
                    c.ci_low = c.ci_high = c.ratio  # no spread at all: nothing to resample
                else:
                    ci = stats.bootstrap((base, v), ratio_of_medians, paired=False, vectorized=True,
                                         confidence_level=CONFIDENCE, n_resamples=RESAMPLES, method="BCa",
                                         random_state=rng).confidence_interval
                    c.ci_low, c.ci_high = float(ci.low), float(ci.high)
                c.p = float(stats.mannwhitneyu(base, v, alternative="two-sided").pvalue)
        out.append(c)
    for config in {c.config for c in out}:
        tested = [c for c in out if c.config == config and not math.isnan(c.p)]
        for c, p in zip(tested, holm([c.p for c in tested])):
            c.p_holm = p
    return out


def gap_recovered(base, other, bound, axis=-1):
    """(median(other) - median(base)) / (median(bound) - median(base))."""
    b = np.median(base, axis=axis)
    return (np.median(other, axis=axis) - b) / (np.median(bound, axis=axis) - b)


@dataclasses.dataclass
class Gap:
    share: float
    ci_low: float = math.nan
    ci_high: float = math.nan


def gap(base, other, bound, seed=0):
    """The share of the gap between base's and bound's medians that other's
    recovers (1: all of it, 0: none), with its 95% BCa bootstrap interval
    when each sample has MIN_SAMPLES values and the bound differs from the
    base. NaN when the medians of base and bound are equal."""
    base, other, bound = (np.asarray(x, dtype=float) for x in (base, other, bound))
    if min(len(base), len(other), len(bound)) == 0 or np.median(bound) == np.median(base):
        return Gap(math.nan)
    g = Gap(float(gap_recovered(base, other, bound)))
    if min(len(base), len(other), len(bound)) >= MIN_SAMPLES:
        ci = stats.bootstrap((base, other, bound), gap_recovered, paired=False, vectorized=True,
                             confidence_level=CONFIDENCE, n_resamples=RESAMPLES, method="BCa",
                             random_state=np.random.default_rng(seed)).confidence_interval
        g.ci_low, g.ci_high = float(ci.low), float(ci.high)
    return g


@dataclasses.dataclass
class Groups:
    n: int                   # groups with a sample
    medians: list            # each group's median, in the order given
    between: float           # (max - min) of the groups' medians / the median of all samples
    within: float            # the median over groups of (max - min) / the group's median
    p: float = math.nan      # one-way ANOVA's F test across the groups


def groups(values_by_group):
    """How far groups of samples of one quantity differ: values_by_group is
    [[values], ...], one list a group (empty lists are skipped). The test
    needs two groups and more samples than groups; with no spread at all
    there is nothing to test (p 1)."""
    gs = [np.asarray(v, dtype=float) for v in values_by_group if len(v)]
    if not gs:
        return Groups(0, [], math.nan, math.nan)
    medians = [float(np.median(g)) for g in gs]
    whole = float(np.median(np.concatenate(gs)))
    g = Groups(len(gs), medians, (max(medians) - min(medians)) / whole,
               float(np.median([np.ptp(x) / np.median(x) for x in gs])))
    if len(gs) >= 2 and sum(map(len, gs)) > len(gs):
        g.p = 1.0 if np.ptp(np.concatenate(gs)) == 0 else float(stats.f_oneway(*gs).pvalue)
    return g


def holm(ps):
    """Holm's step-down adjustment of p values (same order as given)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted
