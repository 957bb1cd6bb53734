"""Command line: ``python -m mapteach evaluate QRELS RUN`` and ``python -m mapteach trace``."""

from mapteach.cli import main

raise SystemExit(main())
