# The two entry points for a newcomer (see README.md). Everything else is
# CMake: this file only chains setup, configure, build and run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all setup debug-kernel build demo check clean

all: build

setup:
	scripts/setup

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	scripts/demo $(BUILD)

# The debug kernel the VM tests also run on, built once into the cache and
# again when its configuration changes (scripts/debug-kernel); before the
# build, which builds vhqv against it.
debug-kernel: setup
	scripts/debug-kernel

check: debug-kernel build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
