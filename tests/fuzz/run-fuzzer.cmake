# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs a libFuzzer target for SECONDS seconds from a fresh copy of the seed
# corpus SEEDS, all under WORK_DIR: the corpus it grows in WORK_DIR/corpus
# and any reproducer in WORK_DIR/artifacts. Fails when libFuzzer does.
#   cmake -D FUZZER=... -D SEEDS=... -D WORK_DIR=... -D SECONDS=... -P run-fuzzer.cmake

foreach(var FUZZER SEEDS WORK_DIR SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run-fuzzer.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/artifacts)
file(COPY ${SEEDS}/ DESTINATION ${WORK_DIR}/corpus)

execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=1024 -timeout=10
          -print_final_stats=1 -artifact_prefix=${WORK_DIR}/artifacts/
          ${WORK_DIR}/corpus
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${result}); reproducer in ${WORK_DIR}/artifacts")
endif()
