# One entry point for people and CI. Everything a fresh Debian (Python 3.11) needs is installed here.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
APT    := DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test lint system-deps clean

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { $(APT) update -qq && $(APT) install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install -q -e ".[dev]"
	@touch $(STAMP)

# Chromium drives the app's end-to-end tests; pdftoppm renders the PDFs the printables tests read back.
system-deps:
	@command -v chromium >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 || { \
	  $(APT) update -qq && $(APT) install -y -qq chromium poppler-utils; }

run: $(STAMP)
	$(BIN)/tourpad app

# lint-imports checks the contracts in pyproject.toml: layers point down, no import cycles, the app's screens
# import no PDF/server/barcode library.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo

test: $(STAMP) system-deps lint
	$(BIN)/pytest -q -n 2 --timeout 600

clean:
	rm -rf $(VENV) build *.egg-info
