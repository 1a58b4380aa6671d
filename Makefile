# pitboss - the two commands a newcomer needs are `make demo` and `make check`.
# Everything real lives in CMake; this file installs what is missing and calls it.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Tests run one more at a time than there are CPUs: the browser and integration tests spend part of
# their time waiting on a daemon, a page or a timer, and a third keeps both CPUs of CI busy
# (docs/reliability.md, "What runs where").
TEST_JOBS  ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
LISTEN     ?= 127.0.0.1:8080

.PHONY: all deps build build-asan check check-all demo bench bench-scale fuzz crash soak package install clean \
	record-routes

all: build

deps:
	@./tools/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPITBOSS_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# The test tiers are ctest label sets (docs/reliability.md, "What runs where").
#   make check      the labels unit, integration and browser on the Release build, then unit and
#                   integration again under ASan+UBSan but for the label slow: two builds, no other tree.
#   make check-all  make check, then every other test of the Release build: bench-smoke (with the
#                   benchmark programs), soak, package, crash, fuzz (its own clang tree), valgrind.
# A test that ran but skipped some of itself is shown by ctest as "Skipped", never as passed.
CHECK_LABELS := ^(unit|integration|browser)$$
SANITIZER_LABELS := ^(unit|integration)$$
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

check: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j$(TEST_JOBS) -L '$(CHECK_LABELS)'
	cd $(ASAN_BUILD) && $(SANITIZER_ENV) ctest --output-on-failure -j$(TEST_JOBS) -L '$(SANITIZER_LABELS)' -LE '^slow$$'

check-all: check
	cmake --build $(BUILD) -j$(JOBS) --target bench_tools
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -LE '$(CHECK_LABELS)'

# Makes tests/integration/data/routes_answers.json again (test_routes.py compares the daemon's answers
# with it and never writes it): by hand only, after a deliberate change; refused when CI is set.
record-routes: build
	PB_BUILD_DIR=$(abspath $(BUILD)) PB_SOURCE_DIR=$(CURDIR) python3 tests/integration/record_routes.py

# The Debian package (prefix /usr): build-package/package/pitboss_VERSION_ARCH.deb,
# without the test clock and the allocation failures on demand (docs/reliability.md,
# "The test clock", "Allocation failures").
PACKAGE_BUILD ?= build-package
package: deps
	cmake -S . -B $(PACKAGE_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DPITBOSS_TEST_CLOCK=OFF >/dev/null
	cmake --build $(PACKAGE_BUILD) -j$(JOBS) --target pitbossd pitboss man_pages debian_changelog
	cd $(PACKAGE_BUILD) && cpack -G DEB

# Installs the Release build under PREFIX (default /usr/local): binaries, page, man pages, unit, example config.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: build
	@./tools/demo.sh $(BUILD) $(LISTEN)

bench: build
	cmake --build $(BUILD) -j$(JOBS) --target bench_tools
	@./tests/bench/run.sh $(BUILD)

# The figures at 10^7 whole rounds (docs/performance.md): about 66 GB in
# /var/tmp/pitboss-scale (SCALE_DIR), twice that during the backup; hours.
bench-scale: build
	cmake --build $(BUILD) -j$(JOBS) --target bench_tools
	./tests/bench/scale.sh $(BUILD) $(or $(SCALE_ROUNDS),10000000) $(or $(SCALE_DIR),/var/tmp/pitboss-scale)

# Long runs, separate from `make check` (`make check-all` runs short versions of each).
crash: build
	python3 tests/crash/crash.py --build $(BUILD) --kills 300

fuzz: deps
	./tests/fuzz/run.sh build-fuzz 600

soak: build
	./tests/bench/soak.sh $(BUILD) 3600

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(PACKAGE_BUILD)
