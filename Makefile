# Muster: `make run` serves a demo site, `make test` runs the whole suite. Both set everything up.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: install node run test lint messages bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# axe-core (the browser tests' accessibility checks) and Lighthouse (benchmarks/lighthouse.py),
# pinned by package-lock.json; installed again only when the lock file changes.
NODE_STAMP := node_modules/.package-lock.json

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error

node: $(NODE_STAMP)

messages: install
	$(BIN)/python manage.py compilemessages --ignore=.venv --verbosity 0

# The site as a visitor sees it: the project's own error pages, static files from whitenoise.
# `DEBUG=true make run` shows Django's debug pages instead.
# The links in the site's e-mails follow HOST and PORT unless SITE_URL is set (0.0.0.0 is
# reached as 127.0.0.1 from this machine).
RUN_SITE_URL = http://$(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(HOST)):$(PORT)
RUN_ENV = DEBUG=$${DEBUG:-false} SITE_URL=$${SITE_URL:-$(RUN_SITE_URL)}

run: messages
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py demo_data --host $(HOST) --port $(PORT)
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# In parallel (pytest-xdist), one worker per CPU; each worker has its own test database, Redis
# databases and live-server port (tests/conftest.py). `make test PYTEST_ARGS=...` adds options.
PYTEST_WORKERS ?= auto
PYTEST_ARGS    ?=

test: messages node
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

# The served benchmarks need PostgreSQL and Redis on 127.0.0.1 (as .ci/run has them); without them they say so.
bench: install
	$(BIN)/python benchmarks/validation.py
	$(BIN)/python benchmarks/pairing.py --quick
	$(BIN)/python benchmarks/standings.py
	$(BIN)/python benchmarks/pairing_api.py
	$(BIN)/python benchmarks/packs.py --tables 500 --repeat 1
	$(BIN)/python benchmarks/pages.py --requests 300 || echo "pages: skipped (needs PostgreSQL and Redis)"
	$(BIN)/python benchmarks/round_end.py --games 200 || echo "round_end: skipped (needs PostgreSQL and Redis)"

clean:
	rm -rf $(VENV) staticfiles
