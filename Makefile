# Thin wrapper over CMake. `make demo` and `make test` work on a fresh
# Debian 12 machine: they install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

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

# Debian packages fastmib and fastmib-dev (Release, installed under /usr),
# built in a tree of their own: $(PACKAGE_BUILD)/packages/*.deb
PACKAGE_BUILD ?= build-package
package: deps
	@cmake -S . -B $(PACKAGE_BUILD) -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX=/usr -DFASTMIB_BASE_MIBS=$(abspath $(BUILD))/base-mibs >/dev/null
	@cmake --build $(PACKAGE_BUILD) -j $(JOBS)
	@cd $(PACKAGE_BUILD) && cpack -G DEB -B $(abspath $(PACKAGE_BUILD))/packages
	@ls -l $(PACKAGE_BUILD)/packages/*.deb

clean:
	rm -rf $(BUILD) $(PACKAGE_BUILD)
