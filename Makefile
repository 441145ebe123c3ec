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

# The run's output is kept (check.log); after a failure, what failed is
# repeated at the end (scripts/check-summary).
check: debug-kernel build
	{ (cd $(BUILD) && ctest --output-on-failure -j $(JOBS)); \
	  echo $$? > $(BUILD)/check.rc; } 2>&1 | tee $(BUILD)/check.log
	@rc=$$(cat $(BUILD)/check.rc); \
	 [ "$$rc" = 0 ] || scripts/check-summary $(BUILD)/check.log; \
	 exit $$rc

clean:
	rm -rf $(BUILD)
