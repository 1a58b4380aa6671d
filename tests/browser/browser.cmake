# The pit boss page in headless Chromium against the real pitbossd
# (tests/browser/run.sh; `ctest -L browser`).  Screenshots: tests/browser/out/.
add_test(NAME browser.page COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh)
# Both run run.sh, which installs node_modules on the first run: one at a time (RESOURCE_LOCK),
# or two npm installs race in the same directory on a clean checkout.  run.sh exits 77 when a test
# skipped itself or is a todo (SKIP_RETURN_CODE: ctest shows it as skipped, not passed).  A high COST
# starts them first on a fresh tree (tests/extra.cmake), so that they do not run one after the other at the end.
set_tests_properties(browser.page PROPERTIES LABELS browser RESOURCE_LOCK browser_node_modules SKIP_RETURN_CODE 77
  COST 200
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
# The dealer's page (/dealer/): rounds entered through it, compared with the record;
# its screenshots land in docs/img/dealer-*.png.
add_test(NAME browser.dealer COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh dealer.test.mjs)
set_tests_properties(browser.dealer PROPERTIES LABELS browser RESOURCE_LOCK browser_node_modules SKIP_RETURN_CODE 77
  COST 150
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
# Cash controls on the pit boss page: the cage view, identification, voids, CTR items moved on;
# its screenshots land in tests/browser/out/cash-*.png.
add_test(NAME browser.cash COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh cash.test.mjs)
set_tests_properties(browser.cash PROPERTIES LABELS browser RESOURCE_LOCK browser_node_modules SKIP_RETURN_CODE 77
  COST 100
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
# Count controls on the pit boss page: the statistics by shift beside the month before, a serial exception
# explained; its screenshots land in tests/browser/out/count-*.png.
add_test(NAME browser.count COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh count.test.mjs)
set_tests_properties(browser.count PROPERTIES LABELS browser RESOURCE_LOCK browser_node_modules SKIP_RETURN_CODE 77
  COST 100
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
# A tour of the pit boss page at 1280x800 and 1920x1080: axe-core on every view, the top bar on one row,
# figures legible on a podium monitor, each role's landing and menus, the property's gaming day from a
# browser in another zone; its screenshots land in docs/img/page-*.png.
add_test(NAME browser.tour COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh tour.test.mjs)
set_tests_properties(browser.tour PROPERTIES LABELS browser RESOURCE_LOCK browser_node_modules SKIP_RETURN_CODE 77
  COST 100
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
