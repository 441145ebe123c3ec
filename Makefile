# The two entry points for a newcomer (see README.md). Everything else is
# CMake: this file only chains setup, configure, build and run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all setup build demo check clean

all: build

setup:
	scripts/setup

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	scripts/demo $(BUILD)

check: build
	cd $(BUILD) && ctest --output-on-failure

clean:
	rm -rf $(BUILD)
