# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The engine's source files: the one list that CMake (engine/CMakeLists.txt)
# and Kbuild (kmod/Kbuild) both read. Make syntax, one assignment per
# list, object names, so that Kbuild takes them as they are and CMake
# swaps .o for .c.
#
# hqv-core: the pipeline and the C rows, plain C, built everywhere.
hqv-core := hqv.o hqv-color.o hqv-deint.o hqv-direct.o hqv-direct-deint.o hqv-direct-orient.o hqv-direct-scale.o hqv-direct-turn.o hqv-format.o hqv-pack.o hqv-rows.o hqv-scale.o
# The SIMD entries of the rows (hqv-rows-simd.h), each file built for its
# instruction set alone: -mssse3 and -mavx2 on x86-64; NEON is arm64's
# baseline.
hqv-rows-x86 := hqv-rows-ssse3.o hqv-rows-avx2.o
hqv-rows-arm64 := hqv-rows-neon.o
# AVX-512BW entries, for user space only: the kernel module does not build
# them, since a kernel-mode FPU section would save and restore 2 KiB of
# AVX-512 state, and the guests that test the module (qemu's TCG) have no
# AVX-512. The module's rows stop at AVX2.
hqv-rows-x86-user := hqv-rows-avx512.o
