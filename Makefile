# The two commands a newcomer needs: `make run` and `make test` (see README.md).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: setup configure build run test asan bench format check-format clean

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: the paper's 2D pouring scene (archived body set b) with the standard contact
# model at h = 0.005 s; summary printed, trajectory and per-step reports in results/pour2d-b.
# The standard model hits SM traps (infeasible LCPs) here: they are counted as solver failures
# and, with --continue-on-failure, recovered by regularisation so that the run completes.
run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target exactsim_cli
	@$(BUILD)/apps/exactsim run --scenario pour2d --set b --model standard --dt 0.005 \
	  --continue-on-failure --out results/pour2d-b

# Builds what the tests and the experiments need (not the benchmarks: `make bench` builds those).
test: configure
	@cmake --build $(BUILD) -j $(JOBS) --target exactsim_tests exactsim_cli
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The test suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
asan: setup
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1" \
	  -DEXACTSIM_SANITIZE=ON -DEXACTSIM_BUILD_BENCH=OFF -DEXACTSIM_BUILD_APPS=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

bench: build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b; done

format:
	@find include src tests bench apps -name '*.h' -o -name '*.cc' | xargs clang-format -i

check-format:
	@find include src tests bench apps -name '*.h' -o -name '*.cc' | xargs clang-format --dry-run -Werror

clean:
	@rm -rf $(BUILD) $(ASAN_BUILD)
