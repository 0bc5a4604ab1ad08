# Thin wrapper over CMake. `make run` is the main job; `make test` runs every test, then the unit tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer. Warnings are errors when CI is set.
BUILD ?= build
SAN_BUILD ?= build-san
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WERROR ?= $(if $(CI),ON,OFF)

.PHONY: all deps build run test test-fast sanitize fuzz strategies bench docs cycles clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: every course scene, scored, with plots in out/.
run: build
	@mkdir -p out
	@$(BUILD)/tread suite scenes/course --plots out

test-fast: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTREAD_SANITIZE=ON -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS)

# A short libFuzzer run of the scene loader (scripts/fuzz.sh SECONDS runs longer ones).
fuzz: deps
	@bash scripts/fuzz.sh 20

test: test-fast sanitize fuzz

# docs/STRATEGIES.md's table of every scene under every stepping strategy.
strategies: build
	@bash scripts/strategies_table.sh $(BUILD)/tread

bench: build
	@$(BUILD)/bench/tread_bench

# API reference of include/tread/ in $(BUILD)/docs/html. Doxygen's warnings (one per undocumented public
# member) are printed and kept in $(BUILD)/docs/warnings.txt.
TREAD_VERSION = $(shell awk '/^\#define TREAD_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $$3; s="."}' include/tread/base.h)
docs:
	@bash scripts/deps.sh docs
	@command -v doxygen >/dev/null || { echo "make docs: doxygen is missing (scripts/deps.sh docs installs it)" >&2; exit 1; }
	@rm -rf $(BUILD)/docs && mkdir -p $(BUILD)/docs
	@TREAD_VERSION=$(TREAD_VERSION) TREAD_DOCS_DIR=$(BUILD)/docs doxygen Doxyfile 2>&1 | sed 's|^$(CURDIR)/||' | tee $(BUILD)/docs/warnings.txt
	@echo "docs: $(BUILD)/docs/html/index.html (tread $(TREAD_VERSION), $$(grep -c 'warning:' $(BUILD)/docs/warnings.txt) warnings)"

# Include and call cycles between the modules of each src/ folder (also the ctest module_cycles).
cycles: build
	@bash scripts/check_cycles.sh src $(BUILD)/CMakeFiles/tread_objects.dir

clean:
	rm -rf $(BUILD) $(SAN_BUILD) out
