PYTHON ?= python3.11
VENV   ?= .venv
# Always installed pinned, before anything else: an unpinned torch pulls a
# multi-GB CUDA build. Override e.g. `make venv TORCH='torch==2.5.1'`.
TORCH  ?= torch==2.13.0

STAMP := $(VENV)/.stamp
# `pip install -e .` puts the repo root on sys.path (one .pth: pyproject's package-dir is the
# root), so top-level packages added after `make venv` still import from console scripts.

.PHONY: venv browser test test-all train bench clean test-recipes

venv: $(STAMP)

# arena.warm compiles numba's kernels of the batched core once into its cache (in parallel
# processes), so that the first fh-eval does not compile for tens of seconds.
$(STAMP): pyproject.toml Makefile
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q '$(TORCH)'
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	$(VENV)/bin/python -m arena.warm
	touch $(STAMP)

# The browser test (tests/test_web_browser.py) drives Debian's headless Chromium: installed here
# when missing (as root, through apt), so that the one test command does its own set-up.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	    DEBIAN_FRONTEND=noninteractive apt-get update </dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver </dev/null; }

test: venv browser
	OMP_NUM_THREADS=1 $(VENV)/bin/python -m pytest -q -n 2 tests

# The recipes of examples/ with the optional RL libraries (SB3, Tianshou, TorchRL, RLlib), in a
# virtualenv of their own: they are heavy, and ray[rllib] pins gymnasium.
RECIPES_VENV  ?= .venv-recipes
RECIPES_STAMP := $(RECIPES_VENV)/.stamp

$(RECIPES_STAMP): pyproject.toml Makefile
	test -x $(RECIPES_VENV)/bin/python || $(PYTHON) -m venv $(RECIPES_VENV)
	$(RECIPES_VENV)/bin/python -m pip install -q --upgrade pip
	$(RECIPES_VENV)/bin/python -m pip install -q '$(TORCH)'
	$(RECIPES_VENV)/bin/python -m pip install -q -e '.[test,sb3,tianshou,torchrl,rllib]'
	touch $(RECIPES_STAMP)

# -o addopts= : pyproject's addopts leave tests/recipes out of the core run.  The env tests run
# here too: the core must work with the gymnasium that ray[rllib] pins.
test-recipes: $(RECIPES_STAMP)
	OMP_NUM_THREADS=1 $(RECIPES_VENV)/bin/python -m pytest -q -o addopts= tests/recipes \
		tests/test_single.py tests/test_env.py

# Everything CI runs (.ci/run): the core suite, then the recipes of the optional RL libraries.
test-all: test test-recipes

train: venv
	$(VENV)/bin/fh-train --config configs/train/quick.toml

# The peers of the table (OpenSpiel) come with the bench extra.
bench: venv
	$(VENV)/bin/python -m pip install -q -e '.[bench]'
	$(VENV)/bin/python -m bench

clean:
	rm -rf $(VENV) $(RECIPES_VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
