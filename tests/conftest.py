"""pytest fixtures; the helpers the tests import live in harness.py, which
the benchmark scripts use too."""
import pytest

from harness import TARGETS


@pytest.fixture(params=TARGETS, ids=[f"{t}-{h}harts" for t, h in TARGETS])
def target(request):
    return request.param
