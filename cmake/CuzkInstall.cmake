# Install layout and the Debian package (docs/curio.md, "Install"):
#   bin/cuzk                                   the one binary
#   share/doc/cuzk/*.md, examples/cuzk.toml    the docs and the example config (docs/cuzk.example.toml)
#   share/doc/cuzk/grafana/cuzk.json           the Grafana dashboard
#   lib/systemd/system/cuzk.service            the unit (dist/cuzk.service.in)
#   lib/sysusers.d/cuzk.conf                   its user (dist/cuzk.sysusers)
#   /etc/cuzk/cuzk.toml                        the config the unit reads (the example; a conffile in the
#                                              .deb; <prefix>/etc/cuzk under a prefix other than /usr)
# `cpack -G DEB` in the build tree makes cuzk_<version>_<arch>.deb whose Depends are computed
# from the libraries the binary links (dpkg-shlibdeps); tests/apps/package.sh checks both.

include(GNUInstallDirs)

install(TARGETS cuzk RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md docs/curio.md docs/daemon.md docs/config.md docs/gpu.md docs/PERF.md docs/formats.md
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/cuzk)
install(FILES docs/cuzk.example.toml DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/cuzk/examples RENAME cuzk.toml)
install(FILES docs/grafana/cuzk.json DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/cuzk/grafana)
install(FILES dist/cuzk.sysusers DESTINATION lib/sysusers.d RENAME cuzk.conf)
# The unit and /etc/cuzk/cuzk.toml: paths known at install time only.
install(CODE "set(CUZK_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")\nset(CUZK_BINARY_DIR \"${PROJECT_BINARY_DIR}\")")
install(SCRIPT cmake/CuzkInstallConfig.cmake)

set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VENDOR "cuzk")
set(CPACK_PACKAGE_CONTACT "cuzk maintainers <cuzk@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 prover for Filecoin proofs (BLS12-381), Curio's cuzk daemon")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends from the linked libraries
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")  # postinst without systemd-sysusers
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/dist/debian/postinst ${PROJECT_SOURCE_DIR}/dist/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# /etc/cuzk/cuzk.toml is a conffile: an upgrade keeps the operator's edits.
file(WRITE ${PROJECT_BINARY_DIR}/dist/conffiles "/etc/cuzk/cuzk.toml\n")
list(APPEND CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/dist/conffiles)
include(CPack)
