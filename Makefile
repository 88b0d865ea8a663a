# The two commands a newcomer needs: `make run` and `make test` (see README.md).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
EXACTSIM = $(BUILD)/apps/exactsim
# OpenBLAS picks its kernels for the CPU at run time (docs/solvers.md "Dense factorisations"), and
# the tests replay captured states and trajectories to the bit: where the CPU has AVX2, every
# target runs with OpenBLAS's AVX2 kernels, on AVX-512 machines too, as the captures were made
# (docs/stepping.md "Determinism"). Set OPENBLAS_CORETYPE to choose another.
OPENBLAS_CORETYPE ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo Haswell)
ifneq ($(OPENBLAS_CORETYPE),)
export OPENBLAS_CORETYPE
endif
# No "Entering directory" lines from the recursive makes of the CMake build.
MAKEFLAGS += --no-print-directory
# A new build tree is configured for Ninja where the machine has it (scripts/setup.sh installs
# it): Ninja compiles a target's files while the libraries it links are still being built, where
# CMake's makefiles wait for them: `make test`'s targets build in 0.88 of the time on the 2-core
# machine (README.md "Tests"). A tree already configured keeps its generator.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja),-G Ninja))

.PHONY: setup configure build install run test asan asan-compiler bench bench-scaling format check-format clean

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) $(call generator,$(BUILD)) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The command as `exactsim` on the PATH (PREFIX/bin; /usr/local/bin by default), beside the
# library, its headers, the archived body sets and the Python module (docs/python.md "Installing").
# As a user without write access to /usr/local: make install PREFIX=~/.local
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX) >$(BUILD)/install.log
	@echo "installed $(PREFIX)/bin/exactsim (the list: $(BUILD)/install_manifest.txt)"

# The main job: two scenes where the standard model fails and PEG does not, each run with both;
# then a die thrown onto a floor with located PLUS impacts and without (docs/impacts.md).
# The corner trap (scenes/corner-trap-2d.json: a slider crosses a static apex at 3 m/s; 0.15 s,
# the crossing: at t = 0.32 s PEG's slider lands on the apex's slope, a real impact);
# the paper's 2D pour on archived set a with the paper's settings (20 polygons, h = 5 ms, 5 s,
# psi/h stabilisation uncapped, fixed steps without the watchdog: apps/reproduce_peg2d.cc), the
# standard model going on past its failed solves. Each run writes results/<name>/ (its printed
# summary in run.txt, replay.html); scripts/verdict.py reads them and prints the verdict.
TRAP = scenes/corner-trap-2d.json --duration 0.15
DIE = scenes/die-bounce-3d.json
POUR = --scenario pour2d --set a --dt 0.005 --duration 5 --stabilisation velocity \
  --max-stabilisation-speed inf --no-watchdog
run: configure
	@echo "building exactsim (log: $(BUILD)/build.log)"
	@cmake --build $(BUILD) -j $(JOBS) --target exactsim_cli >$(BUILD)/build.log 2>&1 || \
	  { grep -E -A4 "error|Error" $(BUILD)/build.log | head -40; \
	    echo "the build failed: $(BUILD)/build.log"; exit 1; }
	@echo "corner trap: a slider crosses an apex at 3 m/s ($(TRAP))"
	@for m in peg standard; do mkdir -p results/corner-trap-$$m && \
	  $(EXACTSIM) run $(TRAP) --model $$m --continue-on-failure --quiet \
	    --out results/corner-trap-$$m >results/corner-trap-$$m/run.txt || exit 1; done
	@echo "the paper's 2D pour, set a: 20 polygons, h = 5 ms, 5 s, psi/h stabilisation"
	@for m in peg standard; do mkdir -p results/pour2d-a-$$m && \
	  $(EXACTSIM) run $(POUR) --model $$m --continue-on-failure --quiet \
	    --out results/pour2d-a-$$m >results/pour2d-a-$$m/run.txt || exit 1; done
	@echo "a die thrown onto a floor, with located PLUS impacts (e = 0.5) and without ($(DIE))"
	@for i in plus none; do mkdir -p results/die-bounce-$$i && \
	  $(EXACTSIM) run $(DIE) --impact $$i --quiet \
	    --out results/die-bounce-$$i >results/die-bounce-$$i/run.txt || exit 1; done
	@grep -h "impacts (PLUS" results/die-bounce-plus/run.txt
	@$(EXACTSIM) view results/die-bounce-plus results/die-bounce-none \
	  --html results/die-bounce.html >/dev/null
	@$(EXACTSIM) view results/corner-trap-peg results/corner-trap-standard \
	  --html results/corner-trap.html >/dev/null
	@$(EXACTSIM) view results/pour2d-a-peg results/pour2d-a-standard \
	  --html results/pour2d-a.html >/dev/null
	@echo "both models side by side: results/corner-trap.html, results/pour2d-a.html;" \
	  "the die with and without impacts: results/die-bounce.html;" \
	  "each run's summary: results/<run>/run.txt"
	@/usr/bin/python3 scripts/verdict.py --trap results/corner-trap-peg results/corner-trap-standard \
	  --pour results/pour2d-a-peg results/pour2d-a-standard

# Builds what the tests and the experiments need (not the benchmarks: `make bench` builds those).
test: configure
	@cmake --build $(BUILD) -j $(JOBS) --target exactsim_tests exactsim_cli
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The test suite again under AddressSanitizer + UndefinedBehaviorSanitizer (without the physics
# layer's scene tests, tests/CMakeLists.txt, and the dense Lemke's largest captured LCP,
# tests/solvers/lemke_test.cc). Compiled with Clang (ASAN_CXX), as the fuzz harnesses are: the
# sanitized build took 287 s against 453 s with GCC 12 on the 2-core machine, its tests 155 s
# against 142 s (README.md "Tests"). No command is built there, so neither is the MPI runner.
ASAN_CXX ?= clang++
# A tree configured with another compiler is configured anew (CMake, told of another compiler,
# would drop the tree's other settings).
asan-compiler:
	@grep -qsx "CMAKE_CXX_COMPILER:[A-Z]*=$(shell command -v $(ASAN_CXX))" $(ASAN_BUILD)/CMakeCache.txt || \
	  rm -rf $(ASAN_BUILD)/CMakeCache.txt $(ASAN_BUILD)/CMakeFiles
asan: setup asan-compiler
	@cmake -S . -B $(ASAN_BUILD) $(call generator,$(ASAN_BUILD)) -DCMAKE_CXX_COMPILER=$(ASAN_CXX) \
	  -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1" \
	  -DEXACTSIM_SANITIZE=ON -DEXACTSIM_BUILD_BENCH=OFF -DEXACTSIM_BUILD_APPS=OFF -DEXACTSIM_WITH_MPI=OFF \
	  $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

bench: build
	@for b in $(BUILD)/bench/bench_*; do case "$${b##*/}" in bench_scaling|bench_metrics|bench_safeguards|bench_paired|bench_basis_cost) continue;; esac; \
	  echo "== $$b"; $$b; done

# The scaling table of docs/performance.md ("Scaling"): exactsim against Bullet, N = 10 … 1000.
# About 20 minutes (up to ~45 if runs hit the kill at 2 budget + 30 s per (engine, N)).
bench-scaling: configure
	@cmake --build $(BUILD) -j $(JOBS) --target bench_scaling
	@$(BUILD)/bench/bench_scaling --dims 3 --n 10,30,100,300,1000 --budget-seconds 120 \
	  --out $(BUILD)/scaling3d.json
	@$(BUILD)/bench/bench_scaling --dims 2 --n 10,30,100,300,1000 --budget-seconds 120 \
	  --out $(BUILD)/scaling2d.json

format:
	@find include src tests bench apps -name '*.h' -o -name '*.cc' | xargs clang-format -i

check-format:
	@find include src tests bench apps -name '*.h' -o -name '*.cc' | xargs clang-format --dry-run -Werror

clean:
	@rm -rf $(BUILD) $(ASAN_BUILD)

# libFuzzer harnesses (fuzz/, docs/input-validation.md "Fuzzing") under ASan + UBSan, built with
# clang in $(FUZZ_BUILD); each runs FUZZ_SECONDS (or FUZZ_RUNS executions, whichever ends first;
# -1: no limit) from the seed corpus in fuzz/corpus/<harness> (new inputs go to
# $(FUZZ_BUILD)/corpus). A crash, leak, sanitizer report or hang fails. The campaign of
# docs/input-validation.md: nice -n 19 make fuzz FUZZ_RUNS=1000000 FUZZ_SECONDS=14400
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_HARNESSES ?= scene_json event_scene_json impact_problem_json mesh scene_step
.PHONY: fuzz
fuzz: setup
	@cmake -S fuzz -B $(FUZZ_BUILD) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O1" $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_HARNESSES))
	@for h in $(FUZZ_HARNESSES); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/artifacts/$$h; \
	  echo "== fuzz_$$h ($(FUZZ_SECONDS) s, runs $(FUZZ_RUNS))"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(FUZZ_BUILD)/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=65536 -dict=fuzz/json.dict -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$h/ \
	    $(FUZZ_BUILD)/corpus/$$h fuzz/corpus/$$h 2>$(FUZZ_BUILD)/fuzz_$$h.log \
	  || { tail -60 $(FUZZ_BUILD)/fuzz_$$h.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|Done " $(FUZZ_BUILD)/fuzz_$$h.log | tail -2; \
	done
