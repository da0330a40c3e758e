# crazylab: developer entry points.  `make venv`, `make app`, `make test`, `make bench`.

PYTHON ?= python3
# Python caches compiled modules (and pytest its rewritten tests) unless told not to; some shells
# and sandboxes set PYTHONDONTWRITEBYTECODE, which made every test process and kernel compile the
# checkout again (15 s of a collection's 16): the targets here always cache.
unexport PYTHONDONTWRITEBYTECODE
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp
PORT   ?= 8866

# What make check leaves to make test (markers: pyproject.toml)
CHECK_MARKS := not browser and not site and not build and not docs and not hub
# Lesson notebooks are checked by nbval; dashboards are executed by tests/ themselves.
LESSONS    := $(sort $(wildcard notebooks/[0-9]*.ipynb))
NBVAL_ARGS := --nbval-lax --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# make test = make check's tests (in parallel), then the slow families one at a time: the
# browsers, builds, docs and site are CPU-bound on two cores, where running them side by side
# was slower (22 min against about 19) and less steady.
PYTEST     := $(BIN)/python -m pytest -q -p no:cacheprovider --durations=15 \
	-m "not ($(CHECK_MARKS)) or lesson" tests $(NBVAL_ARGS) $(LESSONS)

# The app: crazylab's Voilà launcher (a kernel bound with a "busy, retry" page, kernels of closed
# pages freed within seconds, the offline crazylab template); the rest of its settings
# (preheated pool, culling, bound) are in voila.json. CRAZYLAB_SECRET=... keeps seeded links
# dealing the same cards across restarts.
VOILA_ARGS := notebooks --no-browser --port=$(PORT) --Voila.ip=127.0.0.1 \
	--Voila.port_retries=0 --show_tracebacks=False

.PHONY: venv app class check test bench clean distclean lessons site site-deps hub-deps site-serve lock docs

venv: $(STAMP)

# Re-installs only when pyproject.toml or the lock changes (or the venv is missing); links the
# wheel's Jupyter data (the crazylab Voilà template), which an editable install lacks, so plain
# `voila notebooks` works in a checkout as after `pip install crazylab`. The lock
# (ci/constraints-newest.txt, constraints: `-c`) makes the tested set the newest locked one.
LOCK := ci/constraints-newest.txt
$(STAMP): pyproject.toml $(LOCK)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c $(LOCK) \
		-e '.[jupyter,test,lab,examples,site,class,postgres,hub,docs]'
	$(BIN)/python tools/link_jupyter_data.py
	@touch $@

# The lock: exact versions of every extra `make venv` installs (uv keeps the versions already
# locked that still fit the ranges; --upgrade-package NAME moves one), then Binder's pins,
# the same versions for the jupyter and lab extras. Run after changing a range in pyproject.toml.
LOCK_EXTRAS := jupyter widgets lab class postgres hub examples site test docs
UV_COMPILE   = $(BIN)/uv pip compile pyproject.toml --python-version 3.11 --quiet \
	--custom-compile-command 'make lock'
lock: venv
	$(BIN)/python -m pip install --quiet uv
	$(UV_COMPILE) $(addprefix --extra ,$(LOCK_EXTRAS)) -o $(LOCK)
	{ sed -n '/^# Binder/,/^$$/p' binder/requirements.txt; \
	  $(UV_COMPILE) --no-header --extra jupyter --extra lab -c $(LOCK); echo .; \
	} > binder/requirements.txt.new && mv binder/requirements.txt.new binder/requirements.txt

# The documentation site (docs/conf.py: Sphinx + MyST-NB, the lessons with their stored
# outputs) into _build/docs; any warning fails it; then every local link of the built pages
# must resolve (docs/check_links.py: offline, no linkcheck).
DOCS_OUT := _build/docs
docs: venv
	rm -rf $(DOCS_OUT)
	$(BIN)/python -m sphinx -b html -W --keep-going -q -n -d _build/doctrees docs $(DOCS_OUT)
	$(BIN)/python docs/check_links.py $(DOCS_OUT)

# The class database (issue 22): $CRAZYLAB_DB if set, else the SQLite file that
# `crazylab class ...` uses too (created on first use).
CLASS_DB = $${CRAZYLAB_DB:-$${CRAZYLAB_HOME:-$$HOME/.local/share/crazylab}/crazylab.db}

# Learners get the compiled engine where this machine can build it (a C compiler and the
# Python headers; built once, rebuilt when a source changes), else the pure-Python one: the
# server and every kernel it starts import crazylab from $(COMPILED) (PYTHONPATH; -P keeps the
# checkout itself off the path).
app: venv
	@if $(BIN)/python tools/build_compiled.py --can-build; then \
		$(MAKE) --no-print-directory compiled && echo "crazylab: the compiled engine ($(COMPILED))"; \
	else echo "crazylab: no C compiler or Python headers: the pure-Python engine"; fi
	@echo "crazylab: open http://127.0.0.1:$(PORT)/voila/render/index.ipynb  (Ctrl-C stops)"
	@echo "crazylab: the class database is $(CLASS_DB); the teacher's page is" \
		"http://127.0.0.1:$(PORT)/voila/render/teacher.ipynb"
	CRAZYLAB_DB="$(CLASS_DB)" PLOTLY_RENDERER=plotly_mimetype \
		PYTHONPATH="$$($(BIN)/python tools/build_compiled.py --can-build && test -f $(COMPILED)/.stamp && echo $(CURDIR)/$(COMPILED))" \
		$(BIN)/python -P -m crazylab.web.serve $(VOILA_ARGS)

# A class for `make app`: make class NAME="Year 8" prints its code and teacher key.
class: venv
	CRAZYLAB_DB="$(CLASS_DB)" $(BIN)/crazylab class create "$(or $(NAME),My class)"

# What a developer runs before every commit (under 3 minutes on two cores): ruff, mypy and every
# test but the browsers, builds, docs and the static site (markers: pyproject.toml), on
# pytest-xdist's workers (each its own Voilà and databases); `make test` runs everything.
# two more workers than cores: a third of the tests wait on a server, a kernel or a clock
# (on 2 cores, 4 workers: 160 s of tests against 169 s with 3)
CHECK_WORKERS ?= $(shell echo $$(( $$(nproc) + 2 )))
check: venv
	$(BIN)/ruff check .
	$(BIN)/mypy
	@rc=0; PLOTLY_RENDERER=plotly_mimetype $(BIN)/python -m pytest -q -p no:cacheprovider \
		-n $(CHECK_WORKERS) --dist worksteal --durations=10 -m "$(CHECK_MARKS)" tests \
		|| rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make check: pytest collected no tests (exit 5): failing"; exit 1; fi; \
	exit $$rc

test: check site-deps hub-deps
	@echo 'PLOTLY_RENDERER=plotly_mimetype $(PYTEST)'; rc=0; \
	PLOTLY_RENDERER=plotly_mimetype $(PYTEST) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests (exit 5): failing"; exit 1; fi; \
	test $$rc -eq 0 || exit $$rc
	@if $(BIN)/python tools/build_compiled.py --can-build; then \
		$(MAKE) --no-print-directory test-compiled; \
	else echo "make test: the compiled engine was NOT tested: no C compiler or no Python" \
		"headers here (apt-get install gcc python3-dev); .ci/run installs them"; fi

# The engine against OpenSpiel per preset, then the five engine-core figures (issue 11), the
# compiled build included.
bench: venv
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/bench_engine.py
	@if $(BIN)/python tools/build_compiled.py --can-build; then \
		$(MAKE) --no-print-directory compiled; fi
	$(BIN)/python bench/bench_core.py --build $(COMPILED)

clean:
	rm -rf tests/screenshots test-results build dist _site _site_build _build .pytest_cache .ruff_cache .mypy_cache .hypothesis
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name '*.egg-info' \
		-o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)

# Lesson notebooks from their jupytext sources (notebooks/lessons/NN_*.py), executed with
# their widgets' state; `make test` fails while a committed lesson differs from its source.
lessons: venv
	$(BIN)/python tools/lessons.py
# -- optional compiled engine (mypyc) -----------------------------------------------------
# `make compiled` builds build/compiled/ (crazylab with its engine modules compiled by mypyc;
# the installed package stays pure Python). `make test-compiled` runs the tests against it,
# `make bench-compiled` compares it with the pure engine (bench/bench_compiled.py).
COMPILED     := build/compiled
COMPILED_SRC := $(shell find crazylab -name '*.py' -o -name '*.json' -o -name '*.js' -o -name '*.html' \
	-o -name '*.css' 2>/dev/null) tools/build_compiled.py tools/build_backend.py
# PYTHONSAFEPATH (as -P, but inherited by pytest-xdist's workers) keeps the checkout off the path
RUN_COMPILED := CRAZYLAB_COMPILED=1 PYTHONSAFEPATH=1 PYTHONPATH=$(COMPILED) $(BIN)/python

.PHONY: compiled test-compiled bench-compiled

compiled: $(COMPILED)/.stamp

$(COMPILED)/.stamp: $(STAMP) $(COMPILED_SRC)
	$(BIN)/python tools/build_compiled.py -q $(COMPILED)
	@touch $@

# The tests of the engine and of what plays it (bots, simulations, worked examples, bad
# input: the `engine` marker), against the compiled build; the widget, lesson and browser tests
# exercise the same pure-Python layers above it and run once, in `make test`.
test-compiled: compiled
	@echo "make test-compiled: the engine tests (-m engine) against $(COMPILED)"
	PLOTLY_RENDERER=plotly_mimetype $(RUN_COMPILED) -m pytest -q -p no:cacheprovider \
		-m "engine and not browser" tests

bench-compiled: compiled
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/bench_compiled.py --build $(COMPILED)

# --- The static site (crazylab/site/): the dashboards in the visitor's browser, no server.
SITE_PORT ?= 8000

# Pyodide's runtime and Font Awesome, pinned by crazylab/site/files/package-lock.json: npm ci
# once into ~/.cache/crazylab (what `crazylab site` does on any machine with npm).
site-deps: venv
	$(BIN)/python -m crazylab.site.build --npm-only

# The JupyterHub proxy for the hub test (tests/test_hub.py): npm's configurable-http-proxy,
# once, beside the venv.
HUB_PROXY := $(VENV)/hub-proxy/node_modules/.bin/configurable-http-proxy
hub-deps: $(HUB_PROXY)
$(HUB_PROXY): | venv
	npm install --silent --no-audit --no-fund --prefix $(VENV)/hub-proxy configurable-http-proxy@5.3.0

site: site-deps
	$(BIN)/python -m crazylab.site.build

site-serve:
	@test -f _site/index.html || $(MAKE) site
	$(BIN)/python -m crazylab.site.static_server --port $(SITE_PORT)
