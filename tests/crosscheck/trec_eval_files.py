"""What the trec_eval cross-checks share: the measures trec_eval prints that mapteach lacks.

Both the comparison with trec_eval's ``make quicktest`` outputs (test_trec_eval_golden) and
the one with the trec_eval binary (test_trec_eval_binary) leave these measures out, and
count what they leave out, so that no other measure drops out of the comparison unseen.

>>> is_lacking("relative_P_5"), is_lacking("set_map"), is_lacking("P_5"), is_lacking("Gx")
(True, True, False, False)
"""

from __future__ import annotations

__all__ = ["LACKING", "is_lacking", "is_lacking_as"]

#: trec_eval measures (base names, as ``-m all_trec`` prints them) that mapteach does not
#: compute; another issue may add them. A printed name with parameters (``relative_P_5``,
#: ``G_0.5``) is its base name, an underscore and the parameters.
LACKING = frozenset(
    {
        "G",
        "Rndcg",
        "binG",
        "ndcg_rel",
        "num_nonrel_judged_ret",
        "rbp",
        "rbp_resid",
        "relative_P",
        "relstring",
        "set_map",
        "set_relative_P",
        "unj",
        "utility",
    }
)


def is_lacking_as(name: str, base: str) -> bool:
    """Whether trec_eval's printed ``name`` is the measure ``base``, with or without parameters."""
    return name == base or name.startswith(f"{base}_")


def is_lacking(name: str) -> bool:
    """Whether trec_eval's printed ``name`` (``relative_P_5``) is a measure mapteach lacks."""
    return any(is_lacking_as(name, base) for base in LACKING)
