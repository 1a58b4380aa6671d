# Installation and the Debian package (docs/operations.md, "Install").
#
#   cmake --install build --prefix DIR      binaries, page, man pages, unit, example config
#   make package                            build-package/pitboss_VERSION_ARCH.deb (prefix /usr)
#
# Paths follow GNUInstallDirs: with the prefix /usr the configuration goes to
# /etc/pitboss and the state to /var/lib/pitboss, with any other prefix to
# PREFIX/etc/pitboss and PREFIX/var/lib/pitboss.
include(GNUInstallDirs)

set(PB_VERSION ${PROJECT_VERSION})
set(PB_FULL_BINDIR ${CMAKE_INSTALL_FULL_BINDIR})
set(PB_FULL_SYSCONFDIR ${CMAKE_INSTALL_FULL_SYSCONFDIR})
set(PB_FULL_LOCALSTATEDIR ${CMAKE_INSTALL_FULL_LOCALSTATEDIR})
set(PB_FULL_DATADIR ${CMAKE_INSTALL_FULL_DATADIR})
set(PB_FULL_DOCDIR ${CMAKE_INSTALL_FULL_DOCDIR})
# With the prefix /usr (the package) the configuration and the unit take the system's absolute
# places; with any other prefix they stay under it, so `cmake --install --prefix DIR` relocates them.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(PB_CONF_DEST /etc/pitboss)
  set(PB_UNIT_DEST /lib/systemd/system)     # Debian 12's place for packaged units
else()
  set(PB_CONF_DEST ${CMAKE_INSTALL_SYSCONFDIR}/pitboss)
  set(PB_UNIT_DEST lib/systemd/system)
endif()

# `make install` and cpack install only what they name; they do not build the tests first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

configure_file(${CMAKE_SOURCE_DIR}/packaging/debian/conffiles.in ${CMAKE_BINARY_DIR}/debian/conffiles @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/packaging/debian/changelog ${CMAKE_BINARY_DIR}/debian/changelog @ONLY)
foreach(script postinst prerm postrm)
  file(COPY ${CMAKE_SOURCE_DIR}/packaging/debian/${script} DESTINATION ${CMAKE_BINARY_DIR}/debian
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()

# Man pages: the version and the paths filled in, compressed as Debian wants them.
find_program(PB_GZIP gzip REQUIRED)
set(PB_MAN_PAGES pitbossd.8 pitboss.1 pitboss.json.5)
set(PB_MAN_GZ)
foreach(page ${PB_MAN_PAGES})
  configure_file(${CMAKE_SOURCE_DIR}/man/${page} ${CMAKE_BINARY_DIR}/man/${page} @ONLY)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/${page}.gz
    COMMAND ${PB_GZIP} -9nf -k ${CMAKE_BINARY_DIR}/man/${page}
    DEPENDS ${CMAKE_BINARY_DIR}/man/${page}
    COMMENT "Compressing man page ${page}")
  list(APPEND PB_MAN_GZ ${CMAKE_BINARY_DIR}/man/${page}.gz)
endforeach()
add_custom_target(man_pages ALL DEPENDS ${PB_MAN_GZ})
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.gz
  COMMAND ${PB_GZIP} -9nc ${CMAKE_BINARY_DIR}/debian/changelog > ${CMAKE_BINARY_DIR}/debian/changelog.gz
  DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog)
add_custom_target(debian_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.gz)

install(TARGETS pitbossd pitboss RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/web/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pitboss/web
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(FILES ${CMAKE_BINARY_DIR}/man/pitbossd.8.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES ${CMAKE_BINARY_DIR}/man/pitboss.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/man/pitboss.json.5.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
# The unit names the installed paths, known only at install time (--prefix may change them).
install(CODE "
  set(PB_FULL_BINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(PB_FULL_SYSCONFDIR /etc)
    set(PB_FULL_LOCALSTATEDIR /var)
    set(unit_dest /lib/systemd/system)
  else()
    set(PB_FULL_SYSCONFDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_SYSCONFDIR}\")
    set(PB_FULL_LOCALSTATEDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LOCALSTATEDIR}\")
    set(unit_dest \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")
  endif()
  configure_file(${CMAKE_SOURCE_DIR}/config/pitbossd.service.in ${CMAKE_BINARY_DIR}/unit/pitbossd.service @ONLY)
  file(INSTALL DESTINATION \"\${unit_dest}\" TYPE FILE FILES ${CMAKE_BINARY_DIR}/unit/pitbossd.service)
")
install(FILES ${CMAKE_SOURCE_DIR}/config/production/pitboss.json DESTINATION ${PB_CONF_DEST})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/config/games DESTINATION ${PB_CONF_DEST}
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
file(GLOB PB_DOCS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${PB_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/copyright ${CMAKE_BINARY_DIR}/debian/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- the Debian package ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pitboss)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The pitboss authors")
set(CPACK_PACKAGE_CONTACT "The pitboss authors <pitboss@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "back office of a Three Card Poker pit")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "pitbossd checks every round of every Three Card Poker table against the
table's rules and limits, computes every payout exactly and in payout order,
and records it durably in SQLite, hash-chained and signed, for surveillance,
auditors and pit bosses (JSON API, reports and a browser page). pitboss
analyses games, verifies and replays the record, and makes backups.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_BINARY_DIR}/debian/postinst ${CMAKE_BINARY_DIR}/debian/prerm ${CMAKE_BINARY_DIR}/debian/postrm
  ${CMAKE_BINARY_DIR}/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
# A package never carries the test clock (common/testclock.h): cpack refuses a tree configured with it.
if(PITBOSS_TEST_CLOCK)
  file(WRITE ${CMAKE_BINARY_DIR}/cpack_refuse_test_clock.cmake
    "message(FATAL_ERROR \"this build tree has the test clock (PITBOSS_TEST_CLOCK=ON): a package must not; \"\n"
    "  \"configure another tree with -DPITBOSS_TEST_CLOCK=OFF (make package does)\")\n")
  set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/cpack_refuse_test_clock.cmake)
endif()
include(CPack)
