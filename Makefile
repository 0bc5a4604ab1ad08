# Thin wrapper over CMake. `make run` is the main job; `make test` runs every test (test-fast: every ctest), then the
# unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer, the threads test under ThreadSanitizer, the
# determinism check under clang, a short fuzz, the WebAssembly build's tests with the npm package (test-web) and the
# viewer's browser test (test-browser): TEST_STAGES below, announced one by one, then a verdict with the time taken.
# Warnings are errors when CI is set.
BUILD ?= build
SAN_BUILD ?= build-san
TSAN_BUILD ?= build-tsan
CLANG_BUILD ?= build-clang
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WERROR ?= $(if $(CI),ON,OFF)
# The version, from include/tread/base.h (its one source).
TREAD_VERSION = $(shell awk '/^\#define TREAD_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $$3; s="."}' include/tread/base.h)

# The npm package `make package` writes (and test-web installs).
NPM_PACKAGE = $(BUILD)/package/tread-$(TREAD_VERSION).tgz

.PHONY: all deps build run test test-fast sanitize tsan determinism fuzz strategies matrix soak levels bench docs cycles package clean check-trig

all: build

# core, engine (Debian's libbullet-dev) so that the Bullet adapter's tests run in `make test` and in CI, and levels
# (openarena-081-maps) for the levels_sample test and `make levels`.
deps:
	@bash scripts/deps.sh core engine levels

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: every course scene, scored, with plots in out/. The build is quiet: its output goes to
# $(BUILD)/build.log, shown (the last 60 lines) only when it fails.
run: deps
	@mkdir -p $(BUILD) out
	@echo "make run: building tread in $(BUILD)/ (output in $(BUILD)/build.log)"
	@{ cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTREAD_WERROR=$(WERROR) && cmake --build $(BUILD) -j $(JOBS); } \
	  > $(BUILD)/build.log 2>&1 || { tail -n 60 $(BUILD)/build.log; echo "make run: the build failed; the whole log is $(BUILD)/build.log" >&2; exit 1; }
	@echo "make run: the course (docs/COURSE.md), each scene's checks under the default stepping strategy (the sweep column)"
	@echo
	@status=0; $(BUILD)/tread suite scenes/course --plots out || status=$$?; \
	echo; echo "plots: out/<scene>.svg, one per scene: the path among the bodies, in the views each scene names (docs/SCENES.md, Plots)"; \
	echo "more: $(BUILD)/tread suite scenes/course --strategy all (every strategy), $(BUILD)/tread run FILE --plot F.svg (docs/SCENES.md)"; \
	exit $$status

# The soak's commit-seeded sample (soak_sample_commit) prints its seed first: a failure names the worlds to replay.
test-fast: build
	@bash tests/soak_commit_sample.sh . --seed
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTREAD_SANITIZE=ON -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS)

# The threading contract (include/tread/tread.h) under ThreadSanitizer: the library and its threads test only.
tsan: deps
	@cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTREAD_TSAN=ON -DTREAD_BUILD_TOOLS=OFF -DTREAD_BUILD_BENCH=OFF \
	  -DTREAD_BUILD_EXAMPLES=OFF -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target test_threads
	@ctest --test-dir $(TSAN_BUILD) --output-on-failure -R '^test_threads$$'

# The pinned state hash (tests/test_state_hash.c) and the no-fused-multiply-add check built by clang -O2 too: the
# same bits as gcc's -O2 (test-fast) and -O0 (sanitize) builds.
determinism: deps
	@CC=clang cmake -S . -B $(CLANG_BUILD) -DCMAKE_BUILD_TYPE=Release -DTREAD_BUILD_TOOLS=OFF -DTREAD_BUILD_EXAMPLES=OFF \
	  -DTREAD_BUILD_BENCH=OFF -DTREAD_WERROR=$(WERROR) >/dev/null
	@cmake --build $(CLANG_BUILD) -j $(JOBS) --target test_state_hash test_determinism
	@ctest --test-dir $(CLANG_BUILD) --output-on-failure -R '^test_(state_hash|determinism)$$'

# A short libFuzzer run of the scene loader (scripts/fuzz.sh SECONDS runs longer ones).
fuzz: deps
	@bash scripts/fuzz.sh 20

# make test runs its stages one after another, each announced as it starts, and ends on one verdict line with the
# time taken (the first failing stage stops it and is named).
TEST_STAGES = test-fast sanitize tsan determinism fuzz test-web test-browser
test:
	@start=$$(date +%s); n=0; total=$(words $(TEST_STAGES)); \
	elapsed() { s=$$(( $$(date +%s) - start )); printf '%d min %02d s' $$((s / 60)) $$((s % 60)); }; \
	for stage in $(TEST_STAGES); do \
	  n=$$((n + 1)); \
	  case $$stage in \
	    test-fast) what="every ctest: unit tests, scenes, examples, install and consumers, matrix, soak and levels samples" ;; \
	    sanitize) what="the ctests again under AddressSanitizer + UndefinedBehaviorSanitizer (build in $(SAN_BUILD))" ;; \
	    tsan) what="the threading contract's test under ThreadSanitizer" ;; \
	    determinism) what="the pinned state hash and the no-FMA check built by clang -O2" ;; \
	    fuzz) what="20 s of libFuzzer on the scene loader" ;; \
	    test-web) what="the WebAssembly build's tests and the npm package installed offline" ;; \
	    test-browser) what="the viewer in headless chromium" ;; \
	    *) what="" ;; \
	  esac; \
	  echo "==> make test: stage $$n of $$total, $$stage$${what:+: $$what} (at $$(elapsed))"; \
	  $(MAKE) --no-print-directory $$stage || { echo "==> make test: FAILED in stage $$n of $$total ($$stage) after $$(elapsed)"; exit 1; }; \
	done; \
	echo "==> make test: PASSED, all $$total stages ($(TEST_STAGES)) in $$(elapsed)"

# tread_sin and tread_cos (src/trig.c) against libm over all 2^32 floats (tests/check_trig.c): within 1 ulp, equal
# to libm's double result rounded to float, NaN for NaN and infinities, odd and even; the double tr_sincos within
# 4e-16 over |x| <= 2^25. Not part of `make test`: TRIG_JOBS threads, about 7.5 CPU-minutes (4 minutes on two idle
# cores; 12 on two busy ones). Results in docs/CLAIMS.md.
TRIG_JOBS ?= 2
check-trig: build
	@$(BUILD)/tests/check_trig --jobs $(TRIG_JOBS)

# docs/STRATEGIES.md's table of every scene under every stepping strategy.
strategies: build
	@bash scripts/strategies_table.sh $(BUILD)/tread

# The generated scene matrix (docs/STRATEGIES.md "Generated matrix"): every generated case at 30, 60,
# 120 and 240 Hz, up +Y and tilted, under every strategy and shape, in MATRIX_JOBS worker processes (about ten
# minutes on two cores). Rewrites the matrix section of docs/STRATEGIES.md (machine, date, totals, failures by
# family) and keeps the full report in $(BUILD)/matrix.txt. Exit 1 when the default strategy (sweep) fails.
# MATRIX_ARGS passes options to `tread matrix` (e.g. "--families steps" for a quick look).
MATRIX_JOBS ?= 2
MATRIX_ARGS ?=
matrix: build
	@status=0; $(BUILD)/tread matrix --jobs $(MATRIX_JOBS) $(MATRIX_ARGS) --markdown $(BUILD)/matrix.md > $(BUILD)/matrix.txt || status=$$?; \
	grep -E '^(matrix|ran|[a-z_]+, [a-z]+:|[0-9]+ of)' $(BUILD)/matrix.txt; \
	[ -s $(BUILD)/matrix.md ] || { echo "make matrix: no summary (status $$status); see $(BUILD)/matrix.txt" >&2; exit 2; }; \
	{ echo "Generated by \`make matrix\` on $$(uname -m), $$(nproc) cores, $$(date -u +%Y-%m-%d): $$(grep '^matrix:' $(BUILD)/matrix.txt | sed 's/^matrix: //'); $$(grep '^ran ' $(BUILD)/matrix.txt)."; \
	  echo; cat $(BUILD)/matrix.md; } > $(BUILD)/matrix-section.md; \
	awk -v table=$(BUILD)/matrix-section.md '/<!-- matrix:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next } \
	  /<!-- matrix:end -->/ { skip = 0 } !skip { print }' docs/STRATEGIES.md > docs/STRATEGIES.md.new && mv docs/STRATEGIES.md.new docs/STRATEGIES.md; \
	echo "updated docs/STRATEGIES.md (full report: $(BUILD)/matrix.txt)"; exit $$status

# The long soak (docs/RELIABILITY.md): SOAK_UPDATES character updates of random worlds, split evenly over the seeds
# SOAK_SEEDS (each runs its first worlds), in SOAK_JOBS threads, every frame checked in double precision; 10^8
# updates over 20 seeds took 33 minutes on two cores shared with other jobs. Rewrites the results section of
# docs/RELIABILITY.md (machine, date, time, a row per seed with its violations by kind, the table by strategy and
# shape, the violations by kind) and keeps every violation's line in $(BUILD)/soak.txt. Exit 1 on a violation not in
# tests/data/soak_known_violations.txt. `make soak SOAK_SEEDS=12 SOAK_UPDATES=10000000` runs one seed.
SOAK_SEEDS ?= 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
SOAK_UPDATES ?= 100000000
SOAK_JOBS ?= 2
soak_comma := ,
soak_space := $(subst ,, )
soak: build
	@status=0; start=$$(date +%s); \
	$(BUILD)/tread_soak --seeds $(subst $(soak_space),$(soak_comma),$(strip $(SOAK_SEEDS))) --updates $(SOAK_UPDATES) --jobs $(SOAK_JOBS) \
	  --known tests/data/soak_known_violations.txt --report $(BUILD)/soak.md > $(BUILD)/soak.txt || status=$$?; seconds=$$(( $$(date +%s) - start )); \
	sed -n '/^soak: /,$$p' $(BUILD)/soak.txt; \
	[ -s $(BUILD)/soak.md ] || { echo "make soak: no report (status $$status); see $(BUILD)/soak.txt" >&2; exit 2; }; \
	{ echo "Generated by \`make soak\` on $$(uname -m), $$(nproc) cores, $$(date -u +%Y-%m-%d), $(SOAK_JOBS) threads, $$seconds s."; \
	  echo; cat $(BUILD)/soak.md; } > $(BUILD)/soak-section.md; \
	awk -v table=$(BUILD)/soak-section.md '/<!-- soak:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next } \
	  /<!-- soak:end -->/ { skip = 0 } !skip { print }' docs/RELIABILITY.md > docs/RELIABILITY.md.new && mv docs/RELIABILITY.md.new docs/RELIABILITY.md; \
	echo "updated docs/RELIABILITY.md (every violation: $(BUILD)/soak.txt)"; exit $$status

# Real levels (docs/LEVELS.md): every map of OpenArena's package walked from every spawn point by the box and the
# capsule, LEVELS_SECONDS each at 60 Hz, alone and once batched per map, movers running (the walker's default;
# LEVELS_ARGS=--no-movers leaves them out), with the default strategy (sweep); the
# other strategies on LEVELS_SUBSET; LEVELS_JOBS threads (about 20 minutes on two cores). The full report (every
# failure with the command that reproduces it) in $(BUILD)/levels.txt, the totals here. Exit 1 on any failure.
LEVELS_JOBS ?= 2
LEVELS_SECONDS ?= 60
LEVELS_SUBSET ?= oa_dm1 oa_ctf2 czest1dm q3dm6ish
LEVELS_ARGS ?=
levels: build
	@status=0; $(BUILD)/tread walk --all --shape all --strategy sweep --batch --seconds $(LEVELS_SECONDS) --jobs $(LEVELS_JOBS) $(LEVELS_ARGS) \
	  > $(BUILD)/levels.txt || status=$$?; \
	$(BUILD)/tread walk $(LEVELS_SUBSET) --shape all --strategy contact,cast_down,riser --seconds $(LEVELS_SECONDS) --jobs $(LEVELS_JOBS) \
	  $(LEVELS_ARGS) >> $(BUILD)/levels.txt || { s=$$?; [ $$status -ge $$s ] || status=$$s; }; \
	grep -E '^(walk:|overall|moves:)' $(BUILD)/levels.txt; echo "full report: $(BUILD)/levels.txt"; exit $$status

# The course's character benchmarks (P1, P2, P3 without and with character-vs-character) and the scaling runs,
# interleaved rounds, medians (docs/PERFORMANCE.md; about 10 minutes on two cores). CSV on stdout and in
# $(BUILD)/bench.csv. BENCH_ARGS picks runs and options, e.g. BENCH_ARGS="course --rounds 12".
# bench-callgrind: instructions per update of P1, P2, P3 and P3 with character-vs-character (needs valgrind).
# bench-queries: the world's query throughput and build times.
# bench-levels: the levels group (bench/levels.sh): three OpenArena maps, box and capsule, alone and batched, time
# per update (interleaved rounds, medians) and, with BENCH_LEVELS_ARGS=--callgrind, instructions per update.
.PHONY: bench-callgrind bench-queries bench-levels
BENCH_LEVELS_ARGS ?=
BENCH_ARGS ?=
bench: build
	@$(BUILD)/bench/tread_bench_character --csv $(BUILD)/bench.csv $(BENCH_ARGS)

bench-callgrind: build
	@bash scripts/deps.sh bench
	@bash bench/callgrind.sh $(BUILD)

bench-queries: build
	@$(BUILD)/bench/tread_bench

bench-levels: build
	@bash scripts/deps.sh levels $(if $(findstring --callgrind,$(BENCH_LEVELS_ARGS)),bench)
	@bash bench/levels.sh $(BUILD) $(BENCH_LEVELS_ARGS)

# ---- the web (web/, docs/WEB.md) ----------------------------------------------------------------------------
# wasm: the library and the C scene library (tools/scene: loading, running, checks) as WebAssembly ES modules with
# their JavaScript wrappers, in web/dist (Debian's emscripten, from scripts/deps.sh's web group): one without threads
# and one whose batches run on a pool of workers (web/dist/lib/threads/), both with SIMD.
# test-web: the wrapper's API and types, every shipped scene loaded in WebAssembly with the native loader's messages,
# the course's and two crowds' runs bit for bit against the native `tread run` in both builds (WEB_TEST_ALL=1: every
# shipped scene), and the two builds' crowds frame by frame.
WASM_INPUTS = $(shell grep -oE 'src/[A-Za-z0-9_/]+\.c' cmake/sources.cmake) $(wildcard src/*.h src/*/*.h include/tread/*.h) \
  cmake/sources.cmake $(wildcard web/wasm/*) $(wildcard tools/scene/*.c tools/scene/*.h)
WEB_JS = $(wildcard web/lib/* web/scene/*)
.PHONY: wasm test-web

web/dist/lib/tread_wasm.mjs: $(WASM_INPUTS)
	@bash scripts/deps.sh web
	@bash web/wasm/build.sh

web/dist/tread.mjs: web/dist/lib/tread_wasm.mjs $(WEB_JS)
	@bash web/wasm/build.sh --js

wasm: web/dist/tread.mjs

test-web: build wasm $(NPM_PACKAGE)
	@BUILD=$(BUILD) TREAD_NPM_PACKAGE=$(abspath $(NPM_PACKAGE)) node --test --test-reporter=spec web/test/*.test.mjs

# package: the release archives in $(BUILD)/package (docs/INSTALL.md): tread-X.Y.Z.tgz, the npm package of the
# WebAssembly build (the typed wrapper, web/README.md's three.js quick start, no runtime dependencies; test-web installs
# it offline into an empty folder and runs it there: web/test/package.test.mjs), and tread-X.Y.Z.tar.gz, the source
# (git archive of HEAD: commit first; what examples/cmake/fetchcontent fetches).
$(NPM_PACKAGE): web/dist/tread.mjs web/package.json web/README.md LICENSE include/tread/base.h scripts/package.sh
	@bash scripts/package.sh npm $(BUILD)/package >/dev/null

package: $(NPM_PACKAGE)
	@bash scripts/package.sh source $(BUILD)/package >/dev/null
	@echo "package: $(NPM_PACKAGE) (npm install ./tread-$(TREAD_VERSION).tgz), $(BUILD)/package/tread-$(TREAD_VERSION).tar.gz (source)"

# web: the browser viewer in web/dist/viewer (docs/WEB.md, "The viewer"): web/viewer/*.mjs with three.js bundled by
# esbuild (npm packages pinned in web/package-lock.json, installed by npm ci), tread's two WebAssembly builds and the
# shipped scenes copied beside it. serve: serves it on http://localhost:$(PORT)/ (web/viewer/serve.mjs, node's http
# module) with the cross-origin isolation headers, so the page runs the threaded build. test-browser: Debian's
# chromium headless through playwright-core holds W on S1 and checks the character reaches the top landing, a trace
# replays, the isolated page runs the threaded build (and one served without the headers the other), and the page
# logs no error; screenshot in $(BUILD)/viewer-S1.png (about 110 s: software WebGL draws a level slowly). screenshot: the same test,
# also writing docs/img/viewer.png. course-plot: docs/img/S1-climb.svg, feet and camera height over time of S1 from
# `tread run --trace` (scripts/plot_trace.mjs).
PORT ?= 8080
VIEWER_INPUTS = $(wildcard web/viewer/*) $(wildcard scenes/*/*.json)
.PHONY: web serve test-browser screenshot course-plot

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	@bash scripts/deps.sh web
	@cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

web/dist/viewer/index.html: web/dist/tread.mjs web/node_modules/.package-lock.json $(VIEWER_INPUTS)
	@node web/viewer/build.mjs

web: web/dist/viewer/index.html

serve: web
	@node web/viewer/serve.mjs --port $(PORT)

test-browser: build web
	@BUILD=$(BUILD) node --test --test-reporter=spec web/test/viewer.browser.mjs

screenshot: build web
	@mkdir -p docs/img
	@BUILD=$(BUILD) SCREENSHOT=docs/img/viewer.png node --test --test-reporter=spec web/test/viewer.browser.mjs

course-plot: build
	@mkdir -p docs/img
	@$(BUILD)/tread run scenes/course/S01-stairs-up.json --trace $(BUILD)/S1-trace.csv >/dev/null
	@node scripts/plot_trace.mjs $(BUILD)/S1-trace.csv docs/img/S1-climb.svg --until 1.5 \
	  --title "S1-stairs-up: ten 0.2 m steps at 4 m/s, the first 1.5 s (tread run --trace, sweep strategy)"

# bench-peers: tread's WebAssembly build, Jolt and Rapier from npm (versions pinned in web/bench/package-lock.json, a
# package of their own that only this target installs, so make test never downloads them) in one node
# process on the course: S1-S10 scored by their expectations, P1-P3 timed (interleaved rounds, medians), tread's native
# bench run after them for a native column; one Markdown table on stdout and in $(BUILD)/peers.md (about ten minutes
# on two busy cores). Without PEERS_ARGS it rewrites the results of docs/PERFORMANCE.md's "Peers" section (machine,
# date, load, the table); PEERS_ARGS passes options and leaves the docs alone (e.g. "--rounds 3", "--scenes",
# "--engine-gaps"; web/bench/peers.mjs).
PEERS_ARGS ?=
.PHONY: bench-peers
web/bench/node_modules/.package-lock.json: web/bench/package.json web/bench/package-lock.json
	@bash scripts/deps.sh web
	@cd web/bench && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

bench-peers: build wasm web/bench/node_modules/.package-lock.json
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); \
	node web/bench/peers.mjs --markdown $(BUILD)/peers.md --native $(BUILD)/bench/tread_bench_character $(PEERS_ARGS) || exit $$?; \
	[ -z "$(PEERS_ARGS)" ] || exit 0; \
	hv=$$(lscpu | sed -n 's/^Hypervisor vendor: *//p'); where=$${hv:+a $$hv guest}; model=$$(lscpu | sed -n 's/^Model name: *//p'); \
	{ echo "Generated by \`make bench-peers\` on $$(date -u +%Y-%m-%d): $$model, $$(nproc) cores, $${where:-bare metal}, load average $$load when it started (with other jobs running, the timings are noisy)."; \
	  echo; cat $(BUILD)/peers.md; } > $(BUILD)/peers-section.md; \
	awk -v table=$(BUILD)/peers-section.md '/<!-- peers:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next } \
	  /<!-- peers:end -->/ { skip = 0 } !skip { print }' docs/PERFORMANCE.md > docs/PERFORMANCE.md.new && mv docs/PERFORMANCE.md.new docs/PERFORMANCE.md; \
	echo "updated docs/PERFORMANCE.md (Peers)"

# API reference of include/tread/ in $(BUILD)/docs/html. Doxygen's warnings (one per undocumented public
# member) are printed and kept in $(BUILD)/docs/warnings.txt.
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
	rm -rf $(BUILD) $(SAN_BUILD) $(TSAN_BUILD) $(CLANG_BUILD) out
