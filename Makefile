# planfirst: `make` bootstraps and builds; see README.md for every target.
BUILD      ?= build
JOBS       ?= $(shell nproc)
FUZZ_SECONDS ?= 60
CMAKE_FLAGS ?=
PEER       ?= ../shared/peers/langgraphjs-bench

.PHONY: all bootstrap build demo demo-friction contacts test test-asan fuzz bench-build bench bench-peers format format-check clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@scripts/build-web

demo: build
	$(BUILD)/planfirst ask examples/sales.csv "get revenue totals by region and product type over time" --out demo-out --checkpointer memory:

# The friction example: 300,000 generated contacts (about 37 MB, so generated here rather than committed).
contacts: build
	@test -f examples/contacts.csv || $(BUILD)/examples/contacts_generator examples/contacts.csv

demo-friction: contacts
	$(BUILD)/planfirst friction examples/contacts.csv --out friction-out --yes --ask "Which driver has the highest repeat rate?"

test: format-check build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: bootstrap
	@$(MAKE) --no-print-directory build BUILD=build-asan CMAKE_FLAGS="-DPLANFIRST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

fuzz: bootstrap
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DPLANFIRST_FUZZ=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	@for f in build-fuzz/fuzz/*_fuzz; do \
	  name=$$(basename $$f); mkdir -p fuzz/corpus-$$name; \
	  echo "== $$name ($(FUZZ_SECONDS) s)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 fuzz/corpus-$$name fuzz/seeds/$$name 2>&1 | tail -n 12 || exit 1; \
	done

bench-build: bootstrap
	@$(MAKE) --no-print-directory build BUILD=build-bench CMAKE_FLAGS="-DPLANFIRST_BENCH=ON -DPLANFIRST_TESTS=OFF -DCMAKE_BUILD_TYPE=Release"

bench: bench-build
	@for b in build-bench/bench/*_bench; do echo "== $$(basename $$b)"; $$b --benchmark_counters_tabular=true || exit 1; done

bench-peers: bench-build
	@scripts/bench-vs-langgraphjs $(PEER)

SOURCES = find src apps tests fuzz bench examples \( -name '*.hpp' -o -name '*.cpp' \) -print0

format:
	@$(SOURCES) | xargs -0 clang-format -i

format-check: bootstrap
	@$(SOURCES) | xargs -0 clang-format --dry-run -Werror

clean:
	rm -rf build build-asan build-fuzz build-bench
