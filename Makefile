PYTHON ?= python3.11
VENV   ?= .venv
# Always installed pinned, before anything else: an unpinned torch pulls a
# multi-GB CUDA build. Override e.g. `make venv TORCH='torch==2.5.1'`.
TORCH  ?= torch==2.13.0

STAMP := $(VENV)/.stamp
# editable_mode=compat puts the repo root on sys.path, so top-level packages
# added after `make venv` (agents/, train/, ...) still import from console scripts.

.PHONY: venv test train bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml Makefile
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q '$(TORCH)'
	$(VENV)/bin/python -m pip install -q -e '.[dev]' --config-settings editable_mode=compat
	touch $(STAMP)

test: venv
	OMP_NUM_THREADS=1 $(VENV)/bin/python -m pytest -q -n 2 tests

train: venv
	$(VENV)/bin/fh-train --config configs/train/quick.toml

bench: venv
	$(VENV)/bin/python -m bench

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
