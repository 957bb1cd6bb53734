"""The ranking boards: drag results, mark them relevant, and watch P@k, the PR curve and AP.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "APBarsFigure": "board_plots",
    "BoardFigure": "board_plots",
    "LiveReadout": "readout_widgets",
    "MOVE_HEADERS": "moves",
    "MoveTable": "moves",
    "MultiQueryBoard": "ranking_board",
    "RankingBoard": "ranking_board",
    "RankingError": "list_widget",
    "RankingList": "list_widget",
    "best_single_moves": "moves",
    "live_readout": "readout_widgets",
    "single_moves": "moves",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
