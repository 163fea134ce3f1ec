# The two commands of the README: `make run` and `make test`. Both install what they need.
BUILD ?= build
CMAKE_FLAGS ?=

.PHONY: deps build run test bench package clean format

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD)

run: build
	@$(BUILD)/bin/lizard-desktop

test: build
	@scripts/run-tests.sh $(BUILD)

bench: build
	@scripts/bench.sh $(BUILD)

# The release .deb (stripped) and its -dbgsym package in $(BUILD)/packages, validated.
package: build
	@scripts/package.sh $(BUILD)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
