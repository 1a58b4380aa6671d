# pitboss - the two commands a newcomer needs are `make demo` and `make check`.
# Everything real lives in CMake; this file installs what is missing and calls it.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
LISTEN     ?= 127.0.0.1:8080

.PHONY: all deps build build-asan check check-asan demo bench bench-scale fuzz crash soak package install clean

all: build

deps:
	@./tools/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPITBOSS_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# Every test: the Release build, then the unit and integration tests again
# under ASan+UBSan (cheap enough on two cores).
check: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j$(JOBS) -L 'unit|integration' -E 'slow'

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
	@./tests/bench/run.sh $(BUILD)

# The figures at 10^7 whole rounds (docs/performance.md): about 66 GB in
# /var/tmp/pitboss-scale (SCALE_DIR), twice that during the backup; hours.
bench-scale: build
	./tests/bench/scale.sh $(BUILD) $(or $(SCALE_ROUNDS),10000000) $(or $(SCALE_DIR),/var/tmp/pitboss-scale)

# Long runs, separate from `make check` (which runs short versions of each).
crash: build
	python3 tests/crash/crash.py --build $(BUILD) --kills 300

fuzz: deps
	./tests/fuzz/run.sh build-fuzz 600

soak: build
	./tests/bench/soak.sh $(BUILD) 3600

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(PACKAGE_BUILD)
