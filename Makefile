# The two commands of the README: `make run` and `make test`. Both install what they need.
BUILD ?= build
CMAKE_FLAGS ?=
SECONDS ?= 25
MINUTES ?= 10
SEED ?= 1

.PHONY: deps build run test bench soak package clean format format-check fuzz test-asan test-asan-quick guide-shots

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD)

run: build
	@$(BUILD)/bin/lizard-desktop

# The suites start as soon as they are built, beside the rest of the build (scripts/run-tests.py).
test: deps
	@CMAKE_FLAGS="$(CMAKE_FLAGS)" scripts/run-tests.sh $(BUILD)

# libFuzzer harnesses (fuzz/, clang, own build dir build-fuzz), SECONDS each.
fuzz: deps
	@scripts/fuzz.sh $(SECONDS) build-fuzz

# lizard-local, lizard-agent and the server suites under ASan+UBSan (build-asan).
test-asan: deps
	@scripts/test-asan.sh build-asan

# The same for the API suites (tests/server/tst_api_*) and the security suites only.
test-asan-quick: deps
	@ASAN_SUITES='^tst_(api_|sec_|security_)' scripts/test-asan.sh build-asan

# The user guide's pictures (docs/guide/*.png), taken by the UI suites that walk through it.
guide-shots: deps
	@CMAKE_FLAGS="$(CMAKE_FLAGS)" scripts/guide-shots.sh $(BUILD)

bench: build
	@scripts/bench.sh $(BUILD)

# A real lizard-local under 8 SDK clients for MINUTES (SEED picks the op mix), invariants
# checked every 30 s; builds only the server and the agent.
soak: deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) --target lizard-local lizard-agent
	@scripts/soak.sh $(BUILD) $(MINUTES) $(SEED)

# The release .deb (stripped) and its -dbgsym package in $(BUILD)/packages, validated.
package: build
	@scripts/package.sh $(BUILD)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

# What CI checks: every C++ file already as `make format` leaves it.
format-check:
	@git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run -Werror
	@echo "format-check: $$(git ls-files '*.cpp' '*.h' | wc -l) files as .clang-format says"

clean:
	rm -rf $(BUILD)
