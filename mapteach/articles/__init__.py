"""The three source articles: their worked examples, their slips and their own MAP
functions, each checked by computation.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

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
    "parse_examples": "examples",
    "parse_reported": "examples",
    "parse_slips": "slips",
    "reported_figures": "examples",
    "slips_table": "slips",
    "trec_eval_map": "functions",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
