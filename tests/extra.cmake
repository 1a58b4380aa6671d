# Extra test and benchmark targets, included by tests/CMakeLists.txt.
#
# The tiers (Makefile, docs/reliability.md): `make check` runs the labels unit,
# integration and browser (and unit + integration again under the sanitizers);
# `make check-all` also runs every other label: bench-smoke, soak, package, and
# crash, fuzz, valgrind of tests/reliability.cmake.  A test with no label of
# the first three runs in check-all only.

# The brute-force cross-checks of the analysis (every six-card set, every
# player/dealer pair): a few seconds in Release, longer under sanitizers, so
# they carry "slow" in name and label (`make check` runs the sanitizer pass
# with -E slow).
add_test(NAME unit.test_analyze_slow COMMAND test_analyze --slow)
set_tests_properties(unit.test_analyze_slow PROPERTIES LABELS "unit;slow"
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 600)
# The same for a decision's exact value (tests/unit/test_decision.c): every suit class of eight rank sets
# against enumeration, all 22,100 hands against the analysis.
add_test(NAME unit.test_decision_slow COMMAND test_decision --slow)
set_tests_properties(unit.test_decision_slow PROPERTIES LABELS "unit;slow"
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 600)

# Benchmarks: run by `make bench` (tests/bench/run.sh), not by ctest, except
# for short smoke runs that prove each benchmark still works.  Their programs
# are not part of a plain build (`make check` runs none of them): the target
# bench_tools builds them, and so does the test bench.build, a fixture of
# every test that runs one, so `ctest -L bench-smoke` builds what it needs.
add_executable(bench_engine EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_engine.c
  ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_rules.c)
target_link_libraries(bench_engine PRIVATE pb_engine m)
target_compile_definitions(bench_engine PRIVATE PB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME bench.engine_smoke COMMAND bench_engine --smoke)
set_tests_properties(bench.engine_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)

# The power of the decision-knowledge statistic (tests/bench/protection_power.c, docs/protection.md
# "Power"): simulated players with the engine alone; `make bench` prints the figures.
add_executable(protection_power EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/protection_power.c
  ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_rules.c)
target_link_libraries(protection_power PRIVATE pb_engine m)
target_compile_definitions(protection_power PRIVATE PB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME bench.protection_power_smoke COMMAND protection_power --smoke)
set_tests_properties(bench.protection_power_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 600)

# Browser tests of the pit boss page (headless Chromium).
include(${CMAKE_CURRENT_SOURCE_DIR}/browser/browser.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/reliability.cmake)

# The reports benchmark (tests/bench/bench_reports.c): summary latency over
# 10^5 and 10^6 rounds loaded through the pit; run by tests/bench/run.sh.
add_executable(bench_reports EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_reports.c)
target_link_libraries(bench_reports PRIVATE pb_table m)
target_compile_definitions(bench_reports PRIVATE PB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME bench.reports_smoke COMMAND bench_reports --smoke)
set_tests_properties(bench.reports_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 300)
# The master game's window read from the hourly rows against every round of it
# (tests/bench/bench_master_game.c), on a database of bench_load --timeline; run by tests/bench/run.sh.
add_executable(bench_master_game EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_master_game.c)
target_link_libraries(bench_master_game PRIVATE pb_table m)
# Its smoke version: 2,400 rounds at one table (40 hours: a whole gaming day), both ways must agree.
add_test(NAME bench.master_game_smoke COMMAND sh -c "rm -rf \"$1\" && mkdir -p \"$1\" && \"$2\" --smoke --timeline \
--tables 1 --rounds 2400 --samples 20 --pitbossd \"$3\" --db \"$1/mg.db\" >/dev/null && \
\"$4\" --db \"$1/mg.db\" --tables 1 --smoke; rc=$?; rm -rf \"$1\"; exit $rc"
  sh ${CMAKE_BINARY_DIR}/mg-smoke $<TARGET_FILE:bench_load> $<TARGET_FILE:pitbossd> $<TARGET_FILE:bench_master_game>)
set_tests_properties(bench.master_game_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)

# HTTP benchmarks (tests/bench/bench_http.c, bench_load.c): the real pitbossd
# on a free loopback port with a temporary config and database, each figure
# next to its anchor; bench_startup.c (run by hand on a database of
# bench_load's) times the start-up integrity check and what its background
# walk costs the rounds dealt meanwhile.  `make bench` runs them in full (tests/bench/run.sh);
# ctest runs short smoke versions (label bench-smoke, each well under 30 s)
# and a 60-second soak (label soak).  The HTTP client of `pitboss` is
# compiled in from daemon/cli/http_client.c.
foreach(bench bench_http bench_load bench_startup bench_mixed)
  add_executable(${bench} EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/${bench}.c
    ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_common.c ${CMAKE_SOURCE_DIR}/daemon/cli/http_client.c)
  target_include_directories(${bench} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bench)
  target_link_libraries(${bench} PRIVATE pb_http m)
  target_compile_definitions(${bench} PRIVATE PB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
endforeach()
add_test(NAME bench.http_smoke COMMAND bench_http --smoke --pitbossd $<TARGET_FILE:pitbossd>)
add_test(NAME bench.load_smoke COMMAND bench_load --smoke --pitbossd $<TARGET_FILE:pitbossd>)
set_tests_properties(bench.http_smoke bench.load_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)
# A dealer's rounds under mixed load (bench_mixed: auditors, pit bosses, a verifier, password guessers, CPU hogs):
# one pair of 3-second phases over 300 rounds, asserting only that every dealer round was recorded (201).
add_test(NAME bench.mixed_smoke COMMAND bench_mixed --smoke --hogs 1 --pitbossd $<TARGET_FILE:pitbossd>)
set_tests_properties(bench.mixed_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)
# Whole rounds under wrk against raw SQLite and the fixed 40-row anchor (bench_http
# --wrk-seconds, with tests/bench/wrk_round.lua): one pair of 2 s; skipped when wrk
# is not installed.
add_test(NAME bench.wrk_rounds_smoke COMMAND bench_http --smoke --wrk-seconds 2 --pairs 1
  --pitbossd $<TARGET_FILE:pitbossd>)
set_tests_properties(bench.wrk_rounds_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 60 SKIP_RETURN_CODE 77)
# The figures at 10^7 rounds (tests/bench/scale.sh, `make bench-scale`): here
# 3,000 rounds, so that every step of it runs (the simulated clock, the
# summaries' totals checked against the rounds, the full start-up walk, a backup).
add_test(NAME bench.scale_smoke COMMAND sh -c "rm -rf \"$1\" && \"$2\" \"$3\" 3000 \"$1\" && rm -rf \"$1\""
  sh ${CMAKE_BINARY_DIR}/scale-smoke ${CMAKE_CURRENT_SOURCE_DIR}/bench/scale.sh ${CMAKE_BINARY_DIR})
set_tests_properties(bench.scale_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)
# The central tier's figures (tests/bench/central_bench.py): a PostgreSQL with
# fsync on, the floor's rate against the shipping rate, an outage at full load,
# the cross-property report at 10^6 rounds.  The smoke version here takes ~40 s.
add_test(NAME bench.central_smoke COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/bench/central_bench.py --smoke)
set_tests_properties(bench.central_smoke PROPERTIES LABELS bench-smoke
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR};PB_BUILD_DIR=${CMAKE_BINARY_DIR}" TIMEOUT 300)
# The benchmark programs, built by the fixture bench_tools before any test that runs one.
add_custom_target(bench_tools DEPENDS bench_engine bench_reports bench_master_game bench_http bench_load bench_startup
  bench_mixed protection_power)
add_test(NAME bench.build COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target bench_tools)
set_tests_properties(bench.build PROPERTIES LABELS bench-smoke FIXTURES_SETUP bench_tools TIMEOUT 900)
set_tests_properties(bench.engine_smoke bench.reports_smoke bench.master_game_smoke bench.http_smoke bench.load_smoke
  bench.wrk_rounds_smoke bench.scale_smoke bench.protection_power_smoke bench.mixed_smoke PROPERTIES
  FIXTURES_REQUIRED bench_tools)

add_test(NAME soak.short COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bench/soak.sh ${CMAKE_BINARY_DIR} 60)
set_tests_properties(soak.short PROPERTIES LABELS soak
  ENVIRONMENT "PB_SOURCE_DIR=${CMAKE_SOURCE_DIR};SOAK_INTERVAL=10;SOAK_RATE=1" TIMEOUT 300)

# Install and package (tests/package/test_package.sh): cmake --install, the .deb, the unit's hardening.
add_test(NAME package.install COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/test_package.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(package.install PROPERTIES LABELS package TIMEOUT 600 SKIP_RETURN_CODE 77)

# The sign-in flood measures a dealer's rounds during it: alone, so that no other test's load is in its figures.
set_tests_properties(integration.test_sign_in_flood PROPERTIES RUN_SERIAL TRUE)
# The order of a fresh tree, which has no ctest cost data yet (higher COST starts first, and ctest -j2 then
# fills each free slot with the longest test left): the serial flood at once, while nothing else runs, rather
# than after a slot idled waiting for a long test to end; then the browser suites (after browser.install, side by side), then the
# tests by their seconds under the sanitizers (make check on the 2-core machine), so that no long test is
# left to run alone at the end: test_verify_faults, last by name, used to start last and end 80 s after the
# rest.  Tests not named here cost 0 and fill the gaps.  A tree that has run ctest once orders by the times
# it measured itself (Testing/Temporary/CTestCostData.txt).
set_tests_properties(integration.test_sign_in_flood PROPERTIES COST 1000)
# test_long_reads walks whole chains on purpose: 75 s under the sanitizers on its own, over 600 s
# with two other jobs on each core; the walks are the test, so it waits longer than the others.
# Its walks are the same code the sanitizers see in test_integrity, test_tamper and test_verify_faults; under
# them it is the longest test of the pass (81 s of one core), so it carries the label slow too: the Release
# pass runs it, the sanitizer pass (-LE slow) leaves it out.
set_tests_properties(integration.test_long_reads PROPERTIES TIMEOUT 1500 LABELS "integration;slow")
# test_tamper alters copies of a record and runs pitboss verify on each: the verify code the sanitizers see in
# test_verify_faults (every kind of part, failing allocations) and test_integrity; 30 s of one core under them.
set_tests_properties(integration.test_tamper PROPERTIES LABELS "integration;slow")
# test_central_upgrade builds central schemas at versions 3, 4 and 5 in PostgreSQL and upgrades them: its work is
# PostgreSQL's (the migrations' SQL) and Python's; `pitboss central init`, the only C it runs, the sanitizers see in
# every other central test.  32 s under them with two other jobs: the Release pass runs it.
set_tests_properties(integration.test_central_upgrade PROPERTIES LABELS "integration;slow")
foreach(cost_test
    "integration.test_verify_faults 90" "integration.test_tamper 75" "integration.test_long_reads 60"
    "integration.test_door 34" "unit.test_migrations 33" "integration.test_people 33" "integration.test_central_report 30"
    "integration.test_hostile 25" "integration.test_corrections 21" "unit.test_dealer 21" "unit.test_canonical 20"
    "integration.test_startup_check 20" "integration.test_edge 20" "unit.test_reports 19"
    "integration.test_central_failover 17" "integration.test_accounting 17" "unit.test_witness 16"
    "unit.test_rollup 16" "integration.test_central_restore 16" "integration.test_durability 16"
    "integration.test_faults 16" "integration.test_statistics 15" "integration.test_backup 15")
  separate_arguments(cost_test)
  list(GET cost_test 0 name)
  list(GET cost_test 1 cost)
  set_tests_properties(${name} PROPERTIES COST ${cost})
endforeach()
