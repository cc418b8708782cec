# Every target sets up what it needs on a fresh machine (Python 3.11+ and make are enough).
# The newest Python 3.11+ that really runs (a version manager may offer names that do not).
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	$$p -c 'import sys; assert sys.version_info >= (3, 11)' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run room test check format bench migrate demo clean messages

$(STAMP): pyproject.toml requirements.lock
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[dev]'
	touch $(STAMP)

# The tools the tests build a TypeScript client with (openapi-typescript, tsc), pinned in
# clients/typescript/package-lock.json. Without npm the site still runs; that test says what to do.
TS_TOOLS := clients/typescript/node_modules/.package-lock.json

$(TS_TOOLS): clients/typescript/package.json clients/typescript/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix clients/typescript --no-audit --no-fund --silent && touch $(TS_TOOLS); \
	else echo "npm not found: install Node.js 20 and npm for the TypeScript client test"; fi

# The translations compiled with Babel (config/catalogs.py): no GNU gettext needed.
install: $(STAMP) $(TS_TOOLS)
	@$(PY) -m config.catalogs compile

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo --if-empty --address $(HOST):$(PORT)

run: demo
	@$(PY) -c "import socket; s = socket.socket(); s.bind(('$(HOST)', $(PORT)))" 2>/dev/null || \
	  { echo "Port $(PORT) is taken: run on another one, e.g. make run PORT=8001"; exit 1; }
	PUBLIC_URL=$${PUBLIC_URL:-http://$(HOST):$(PORT)} $(PY) manage.py runserver $(HOST):$(PORT)

# The club's own network served from this machine (config/room.py): every interface, the
# machine's address on the network as the host of every link and QR code.
room: install
	$(PY) -m config.room --port $(PORT)

# The suite runs on every core (pytest-xdist): each worker has its own test database and, with
# REDIS_URL .../N, Redis database N + its number (config/settings/test.py). A worker that runs out
# of tests takes some of the other's (worksteal): they last from a millisecond to minutes.
TEST_WORKERS ?= auto

# pytest exits 5 when it collected nothing: a broken suite, never a pass.
test: install
	@$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: the suite is broken"; fi; exit $$rc

check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m config.catalogs check

# The strings marked in the code and pages gathered into each language's catalog (this needs
# GNU gettext: apt-get install gettext), then compiled. Translate what is new or fuzzy in
# locale/*/LC_MESSAGES/*.po and run it again (docs/languages.md).
MESSAGE_LANGUAGES := -l hi -l he -l de -l nl
MESSAGE_IGNORE := --ignore=tests --ignore=bench --ignore=examples --ignore=staticfiles \
	--ignore=deploy --ignore=static/vendor
messages: install
	$(PY) manage.py makemessages $(MESSAGE_LANGUAGES) $(MESSAGE_IGNORE) --no-obsolete --no-location
	$(PY) manage.py makemessages -d djangojs $(MESSAGE_LANGUAGES) $(MESSAGE_IGNORE) --no-obsolete --no-location
	$(PY) -m config.catalogs compile

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache staticfiles
