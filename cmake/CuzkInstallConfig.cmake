# Run by `cmake --install` and CPack (install(SCRIPT) from CuzkInstall.cmake), after
# CUZK_SOURCE_DIR and CUZK_BINARY_DIR are set: the unit and the config follow the prefix given
# at install time (`--prefix /usr`, CPack's /usr), not the one configured. Under /usr the config
# is the system's /etc/cuzk/cuzk.toml; under any other prefix, <prefix>/etc/cuzk/cuzk.toml.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(CUZK_ETC /etc/cuzk)
else()
  set(CUZK_ETC ${CMAKE_INSTALL_PREFIX}/etc/cuzk)
endif()
set(CUZK_BIN ${CMAKE_INSTALL_PREFIX}/bin/cuzk)
set(CUZK_DOC_DIR ${CMAKE_INSTALL_PREFIX}/share/doc/cuzk)
set(CUZK_CONFIG_FILE ${CUZK_ETC}/cuzk.toml)
configure_file(${CUZK_SOURCE_DIR}/dist/cuzk.service.in ${CUZK_BINARY_DIR}/dist/cuzk.service @ONLY)
file(INSTALL ${CUZK_BINARY_DIR}/dist/cuzk.service DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
# An existing config is the operator's: never overwritten by a re-install (the .deb's conffile
# handling does the same for upgrades).
if(EXISTS "$ENV{DESTDIR}${CUZK_CONFIG_FILE}")
  message(STATUS "Keeping: $ENV{DESTDIR}${CUZK_CONFIG_FILE}")
else()
  file(INSTALL ${CUZK_SOURCE_DIR}/docs/cuzk.example.toml DESTINATION ${CUZK_ETC} RENAME cuzk.toml)
endif()
