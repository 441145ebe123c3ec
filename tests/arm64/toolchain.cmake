# SPDX-License-Identifier: LGPL-2.1-or-later
# Cross-building libm2m for arm64 with Debian's gcc-aarch64-linux-gnu
# against the arm64 Debian root of scripts/arm64-root as the sysroot
# (M2M_ARM64_ROOT): its libv4l, libpng, Criterion, libyuv and Python.
# The native lane under qemu-user (tests/arm64/native) configures with it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
if(NOT M2M_ARM64_ROOT)
  set(M2M_ARM64_ROOT $ENV{M2M_ARM64_ROOT})
endif()
if(NOT IS_DIRECTORY "${M2M_ARM64_ROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "M2M_ARM64_ROOT=${M2M_ARM64_ROOT} is no arm64 Debian root (scripts/arm64-root)")
endif()
# try_compile() projects read this file again: they need the root too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES M2M_ARM64_ROOT)
set(CMAKE_SYSROOT ${M2M_ARM64_ROOT})
set(CMAKE_FIND_ROOT_PATH ${M2M_ARM64_ROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: the root's .pc files only, their paths inside the root.
set(ENV{PKG_CONFIG_LIBDIR}
    ${M2M_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${M2M_ARM64_ROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${M2M_ARM64_ROOT})
# Test programs run through binfmt_misc (scripts/arm64-binfmt) with the
# root's loader and libraries (QEMU_LD_PREFIX, tests/arm64/native); a
# test CMake runs by its target's name gets qemu explicitly.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L ${M2M_ARM64_ROOT})
