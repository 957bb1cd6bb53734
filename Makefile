# mapteach: two commands do all the set-up on a fresh machine with only Python 3.
#   make lab    create .venv (first time), install requirements.txt, open JupyterLab
#   make test   create/update .venv with the test extras and run every test
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8888
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: help lab test lint notebooks clean
.DEFAULT_GOAL := help

help:
	@echo "make lab        open the workbook in JupyterLab (sets up .venv the first time)"
	@echo "make test       run every test: lint, unit, property, doctest, notebooks, browser"
	@echo "make notebooks  re-execute every notebook in place, storing its outputs"
	@echo "make clean      remove .venv and caches"

$(BIN)/python:
	@echo ">> creating $(VENV) with $$($(PYTHON) --version)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab-installed: requirements.txt pyproject.toml | $(BIN)/python
	@echo ">> installing requirements.txt and mapteach (editable) into $(VENV)"
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $@

$(VENV)/.test-installed: requirements-test.txt $(VENV)/.lab-installed
	@echo ">> installing requirements-test.txt into $(VENV)"
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	@touch $@

lab: $(VENV)/.lab-installed
	@echo ">> opening JupyterLab on notebooks/00_start_here.ipynb (Ctrl+C to stop)"
	$(BIN)/jupyter lab --port=$(PORT) $(ROOT_FLAG) notebooks/00_start_here.ipynb

lint: $(VENV)/.test-installed
	@echo ">> ruff"
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@echo ">> mypy"
	$(BIN)/mypy

test: lint
	@echo ">> pytest: unit, property, doctest, nbval over notebooks/, browser"
	$(BIN)/python -m pytest

notebooks: $(VENV)/.lab-installed
	@echo ">> executing every notebook in place"
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace $(NBEXEC) notebooks/*.ipynb

# Execute without storing widget state, and drop any stored before, so nbconvert's HTML and
# readers without a kernel show each widget's static fallback.
NBEXEC := --ExecutePreprocessor.store_widget_state=False \
	--ClearMetadataPreprocessor.enabled=True \
	--ClearMetadataPreprocessor.clear_cell_metadata=False \
	--ClearMetadataPreprocessor.preserve_nb_metadata_mask=kernelspec \
	--ClearMetadataPreprocessor.preserve_nb_metadata_mask=language_info

clean:
	rm -rf $(VENV) .hypothesis .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
