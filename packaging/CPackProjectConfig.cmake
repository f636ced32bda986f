# Read by cpack (CPACK_PROJECT_CONFIG_FILE) before it builds the packages.
# CPackDeb puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of every component's description, which
# would give buzz-canvas-dev the app's synopsis. Each component's description carries its own
# synopsis as its first line instead (packaging/CMakeLists.txt); CPackDeb prepends nothing when
# the summary is its default.
if(CPACK_GENERATOR STREQUAL "DEB")
    set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CPACK_DEFAULT_PACKAGE_DESCRIPTION_SUMMARY}")
endif()
