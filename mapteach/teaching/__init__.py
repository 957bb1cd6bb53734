"""Floor 2: teaching. Traces, the articles' examples and functions, misconceptions, answer
checking and judging analysis.

Imports mapteach.metrics and mapteach.runs; never mapteach.views, matplotlib or widgets."""
