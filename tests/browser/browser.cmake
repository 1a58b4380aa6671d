# The pit boss page in headless Chromium against the real pitbossd
# (tests/browser/run.sh; `ctest -L browser`).  Screenshots: tests/browser/out/.
add_test(NAME browser.page COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh)
set_tests_properties(browser.page PROPERTIES LABELS browser
  ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  TIMEOUT 300)
