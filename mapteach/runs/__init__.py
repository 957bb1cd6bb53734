"""Floor 2: runs. TREC files, evaluate, run comparison (numbers only), conventions, retrieval.

Imports numpy, pandas, scipy and mapteach.metrics; never mapteach.teaching or views."""
