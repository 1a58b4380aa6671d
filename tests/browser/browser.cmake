# The browser suites: the pit boss page and the dealer's page in Debian's headless Chromium against
# the real pitbossd (tests/browser/run.sh SUITE; `ctest -L browser`).  Screenshots land in
# tests/browser/out/ (docs/img/ for the ones the docs show).
#
# browser.install installs node_modules from the lock file once (run.sh --install), a fixture of every
# suite: the suites never race two npm installs in one directory, so they may run side by side.
# run.sh exits 77 when a test skipped itself or is a todo (SKIP_RETURN_CODE: ctest shows the suite as
# skipped, not passed).  A high COST starts a suite first on a fresh tree (tests/extra.cmake), so the
# long ones do not run one after the other at the end.
add_test(NAME browser.install COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh --install)
set_tests_properties(browser.install PROPERTIES LABELS browser FIXTURES_SETUP browser_node_modules
  COST 1000 TIMEOUT 300)

# pb_browser_suite(NAME FILE COST): the suite tests/browser/FILE as the test browser.NAME.
function(pb_browser_suite name file cost)
  add_test(NAME browser.${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/browser/run.sh ${file})
  set_tests_properties(browser.${name} PROPERTIES LABELS browser FIXTURES_REQUIRED browser_node_modules
    SKIP_RETURN_CODE 77 COST ${cost}
    ENVIRONMENT "PB_BUILD_DIR=${CMAKE_BINARY_DIR};PB_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    TIMEOUT 300)
endfunction()

# The pit boss page: sign-in, the floor, a table, a round, reports, exceptions, the CSP.
pb_browser_suite(page page.test.mjs 200)
# The dealer's page (/dealer/): rounds entered through it, compared with the record;
# its screenshots land in docs/img/dealer-*.png.
pb_browser_suite(dealer dealer.test.mjs 150)
# Cash controls: the cage view, identification, voids, CTR items moved on (tests/browser/out/cash-*.png).
pb_browser_suite(cash cash.test.mjs 100)
# Count controls: the statistics by shift beside the month before, a serial exception explained
# (tests/browser/out/count-*.png).
pb_browser_suite(count count.test.mjs 100)
# The round view: a round opened by its label (T1-2), a correction with a witness shown on the round and
# beside the table's variance, a player-banked round's lines and fees as the API gives them.
pb_browser_suite(round round.test.mjs 100)
# Cash at the moment of action: a player registered at the cage and edited, the Title 31 warnings as an
# amount is typed, patrons near a limit marked on the floor and at their seat, a slip voided by choosing it.
pb_browser_suite(cashflow cashflow.test.mjs 100)
# Refusals and money in sentences: each kind of refusal the pages show, the exceptions, master game and
# Title 31 views, all free of cents, JSON and API codes.
pb_browser_suite(words words.test.mjs 100)
# A tour of every view at 1280x800 and 1920x1080 (axe-core clean, the top bar on one row, figures of at
# least 16 px on the podium monitor), each role's landing and menus, the property's gaming day seen from a
# browser in another zone; its screenshots land in docs/img/page-*.png.
pb_browser_suite(tour tour.test.mjs 150)
