"""The three source articles: their worked examples, their slips and their own MAP
functions, each checked by computation.

Every public name of the package, imported on first use from the module that defines it.
"""

from __future__ import annotations

from typing import Any

from mapteach._lazy import load

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "ARTICLES": "examples",
    "EXAMPLES": "examples",
    "EXAMPLE_HEADERS": "examples",
    "ExampleTable": "examples",
    "MapExample": "examples",
    "REPORTED": "examples",
    "RankingExample": "examples",
    "SLIPS": "slips",
    "SLIP_HEADERS": "slips",
    "Slip": "slips",
    "SlipTable": "slips",
    "article_000_map": "functions",
    "article_001_map": "functions",
    "article_003_map": "functions",
    "examples_table": "examples",
    "get_example": "examples",
    "get_slip": "slips",
    "head_blind_spot_pair": "slips",
    "reported_figures": "examples",
    "slips_table": "slips",
    "trec_eval_map": "functions",
}
__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    return load(__name__, EXPORTS, name)


def __dir__() -> list[str]:
    return __all__
