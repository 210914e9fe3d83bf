# Thin wrapper over CMake. `make demo` and `make test` work on a fresh
# Debian 12 machine: they install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# The build's own progress is enough: no "Entering directory" line from
# each of CMake's sub-makes.
MAKEFLAGS += --no-print-directory

.PHONY: all deps configure build demo test bench package clean

all: build

deps:
	@scripts/install-deps.sh $(BUILD)

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300

bench: build
	@scripts/bench.sh $(BUILD)

# Debian packages libfastmib0, libfastmib-reader0, libfastmib-dev, fastmib
# (and -dbgsym), built by debhelper from packaging/debian:
# $(PACKAGE_BUILD)/*.deb
PACKAGE_BUILD ?= build-package
package: deps
	@packaging/build-debs.sh $(PACKAGE_BUILD) $(abspath $(BUILD))/base-mibs

clean:
	rm -rf $(BUILD) $(PACKAGE_BUILD)
