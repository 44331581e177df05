"""The pending-page log's protocol (pending_log.py) over every interleaving
of a reclaiming task and several flush_tlb_batched_pending() callers: the
fixed protocol (patch 0004) never lets a caller return while a page cleared
before it looked is still unflushed; the protocol it replaced (a caller
empties the log when it copies it) does, which shows the check can fail."""
import pytest

from pending_log import explore


@pytest.mark.parametrize("callers,pages,capacity", [(2, (1, 2, 3), 1), (3, (1, 2), 1), (2, (1, 2, 4), 2)],
                         ids=["2callers-3pages-1entry", "3callers-2pages-1entry", "2callers-3pages-2entries"])
def test_no_caller_returns_before_its_pages_are_flushed(callers, pages, capacity):
    r = explore("fixed", callers=callers, pages=pages, capacity=capacity)
    assert r.violation is None, " -> ".join(r.violation)
    # The search reached callers that found pages to flush, not only empty logs.
    assert r.requests > 0 and r.states > 100, (r.requests, r.states)


def test_emptying_the_log_at_the_copy_lets_a_caller_return_early():
    r = explore("emptied", callers=2, pages=(1, 2, 3), capacity=1)
    # The interleaving the review found: one caller takes the log, the other
    # finds it empty and returns while the first request is in flight.
    assert r.violation == ["owner ('clear', 1)", "caller 1 look", "caller 0 look"], r.violation


def test_removing_entries_that_grew_after_the_copy_loses_their_new_pages():
    r = explore("unnumbered", callers=2, pages=(1, 2, 3), capacity=1)
    assert r.violation is not None
    # The owner extended the copied entry before the caller removed it.
    steps = r.violation
    assert steps.index("owner ('clear', 2)") < steps.index("caller 1 remove"), steps
