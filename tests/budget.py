"""How many examples a property test may run: its own cap, never more than the profile's.

The profile (``MAPTEACH_HYPOTHESIS``, chosen in ``tests/conftest.py``) sets the budget:
``fast`` 20, ``dev`` 200, ``ci`` 300. A test that is costly per example names a lower
cap; ``make test-fast`` then still runs it at the fast profile's count.
"""

from __future__ import annotations

from hypothesis import settings


def examples(cap: int) -> int:
    """``cap``, or the loaded profile's ``max_examples`` where that is smaller."""
    return min(cap, settings.default.max_examples)
