# The two entry points for a newcomer (see README.md). Everything else is
# CMake: this file only chains setup, configure, build and run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all setup debug-kernel build demo check clean

all: build

setup:
	scripts/setup

# Everything, whatever an earlier `make demo` configured the tree for.
FULL = -DBUILD_TESTING=ON -DM2M_BUILD_PYTHON=ON -DM2M_BUILD_BENCH=ON \
	-DM2M_BUILD_VIM2M=ON -DM2M_EXTRA_KDIRS=auto
# What the demo runs, and no more: the m2m command, the vhqv-events sample
# and vhqv (with v4l2-mem2mem) for the primary kernel; none of the tests,
# the Python extension, the benchmarks, the reference drivers or the extra
# kernel lanes, whose packages `scripts/setup demo` leaves out.
DEMO = -DBUILD_TESTING=OFF -DM2M_BUILD_PYTHON=OFF -DM2M_BUILD_BENCH=OFF \
	-DM2M_BUILD_VIM2M=OFF -DM2M_EXTRA_KDIRS=
DEMO_TARGETS = m2m-tool vhqv-events kmod

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(FULL)
	cmake --build $(BUILD) -j $(JOBS)

# The fast first run: the demo's packages only (scripts/setup demo) and its
# targets only. A tree already configured (by make build or make check)
# keeps its configuration; `make check` later installs and builds the rest.
demo:
	scripts/setup demo
	if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD); \
	else cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(DEMO); fi
	cmake --build $(BUILD) -j $(JOBS) --target $(DEMO_TARGETS)
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
