# Extra test and benchmark targets, included by tests/CMakeLists.txt.

# The brute-force cross-checks of the analysis (every six-card set, every
# player/dealer pair): a few seconds in Release, longer under sanitizers, so
# they carry "slow" in name and label (`make check` runs the sanitizer pass
# with -E slow).
add_test(NAME unit.test_analyze_slow COMMAND test_analyze --slow)
set_tests_properties(unit.test_analyze_slow PROPERTIES LABELS "unit;slow"
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 600)

# Benchmarks: run by `make bench` (tests/bench/run.sh), not by ctest, except
# for one short smoke run that proves the benchmark still works.
add_executable(bench_engine ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_engine.c)
target_link_libraries(bench_engine PRIVATE pb_engine m)
target_compile_definitions(bench_engine PRIVATE PB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME bench.engine_smoke COMMAND bench_engine --smoke)
set_tests_properties(bench.engine_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)

# The page in headless Chromium (tests/browser).
include(${CMAKE_CURRENT_SOURCE_DIR}/browser/browser.cmake)
