# mapteach: two commands do all the set-up on a fresh machine with only Python 3.
#   make lab    create .venv (first time), install requirements.txt, open JupyterLab
#   make lab-zh 打开中文版 (the Chinese edition, notebooks/zh/)
#   make test   create/update .venv with the test extras and run every test
#   make test-fast  the quick tests only (no notebooks, browser, wheel or builds)
# Every target that sets up or runs something calls tools/setup.py, the one home of the
# set-up logic; without make (Windows: py -3 tools\setup.py lab) it does the same.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# PORT: JupyterLab's (default 8888), the app's (Voila, 8866), the hub's (8000) or the
# dashboard's (8867)
PORT ?=
# ADDRESS: where lab, app, hub or dashboard listen (default 127.0.0.1; 0.0.0.0 or :: for a
# room's network).
# Not HOST, which some shells export.
ADDRESS ?=
SETUP = $(PYTHON) tools/setup.py --venv $(VENV) $(if $(PORT),--port $(PORT)) \
	$(if $(ADDRESS),--address $(ADDRESS))
# LANG_EDITION=zh: the Chinese edition of the app and of the answer key
LANG_FLAG = $(if $(LANG_EDITION),--lang $(LANG_EDITION))

.PHONY: help lab lab-zh app app-zh hub dashboard test test-fast lint notebooks catalogue site answer-key \
	reset-notebooks clean
.DEFAULT_GOAL := help

help:
	@echo "make lab        open the workbook in JupyterLab (sets up .venv the first time)"
	@echo "make lab-zh     打开中文版 JupyterLab (notebooks/zh/00_start_here.ipynb)"
	@echo "make app        the playground and its exercises as a classroom app, no code (Voila)"
	@echo "                (make app-zh, or make app LANG_EDITION=zh: the Chinese edition)"
	@echo "make hub        a room's server on JupyterHub (Linux): ADDRESS=0.0.0.0 PORT=8000,"
	@echo "                ROOM=folder (default classroom/hub), INSTRUCTOR=name (the admin)"
	@echo "make dashboard  the teacher's dashboard of the app's progress folder, live (Voila, 8867)"
	@echo "make test       run every test: lint, unit, property, doctest, notebooks, browser"
	@echo "make test-fast  the quick tests, in minutes: unit, doctest, property (20 examples);"
	@echo "                no lint, notebooks, browser, wheel, site or answer key"
	@echo "make notebooks  re-execute every notebook (both editions) in place, storing outputs"
	@echo "make reset-notebooks  restore notebooks/ to its committed version (asks; YES=1 does not)"
	@echo "make catalogue  check the message catalogue and compile it (.po -> .mo)"
	@echo "make site       build the workbook as static HTML in build/site/ (open index.html)"
	@echo "make answer-key write the teacher's answer key to build/ (LEARNER=name marks one learner)"
	@echo "make clean      remove .venv and caches"

lab:
	@$(SETUP) lab

lab-zh:
	@$(SETUP) lab-zh

# the app: PROGRESS_DIR=folder (default classroom/progress) holds a file per learner
APP_FLAGS = $(if $(PROGRESS_DIR),--progress-dir "$(PROGRESS_DIR)")

app:
	@$(SETUP) $(if $(filter zh,$(LANG_EDITION)),app-zh,app) $(APP_FLAGS)

app-zh:
	@$(SETUP) app-zh $(APP_FLAGS)

# the teacher's dashboard (instructor/dashboard.ipynb), following PROGRESS_DIR live
dashboard:
	@$(SETUP) dashboard $(APP_FLAGS)

# JupyterHub for a room (mapteach/classroom/hub.py): a JupyterLab, a copy of the workbook
# and a progress file per learner; passwords from MAPTEACH_HUB_PASSWORD and
# MAPTEACH_HUB_ADMIN_PASSWORD, else generated and printed. Every learner's server runs as
# this Unix user: for a trusted room only. The room's checks: make dashboard
# PROGRESS_DIR=classroom/hub/progress
hub:
	@$(SETUP) hub $(if $(ROOM),--room "$(ROOM)") $(if $(INSTRUCTOR),--instructor "$(INSTRUCTOR)")

lint:
	@$(SETUP) lint

# lint first, then pytest: unit, property, doctest, nbval over notebooks/, browser
test:
	@$(SETUP) test

# unit, doctest and property (hypothesis profile fast); no lint, nbval, browser, wheel,
# nor the modules marked slow (site, answer key, nbconvert)
test-fast:
	@$(SETUP) test-fast

notebooks:
	@$(SETUP) notebooks

reset-notebooks:
	@$(SETUP) reset-notebooks $(if $(filter-out 0 no,$(YES)),--yes)

catalogue:
	@$(SETUP) install --test
	$(BIN)/python tools/i18n.py compile
	$(BIN)/python tools/i18n.py check

# Both editions as HTML with their stored outputs, readable from file:// without Python
# or a network (formulas as MathML; see tools/build_site.py).
site:
	@$(SETUP) site

answer-key:
	@$(SETUP) answer-key $(if $(LEARNER),--learner "$(LEARNER)") $(if $(OUT),--out "$(OUT)") $(LANG_FLAG)

clean:
	rm -rf $(VENV) .hypothesis .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
