# Relay-membership gate (NIP-43) and the option parsing that turns it on.
set(_membership_tests_dir "${CMAKE_CURRENT_LIST_DIR}")
buzz_add_qtest(NAME test_server_membership
    SOURCES "${_membership_tests_dir}/test_server_membership.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
if(TARGET buzz-mock-relay)
    add_dependencies(test_server_membership buzz-mock-relay) # one slot runs the real executable
endif()
buzz_add_qtest(NAME test_server_config SOURCES "${_membership_tests_dir}/test_server_config.cpp"
    LIBS buzz_mock_relay_config TIMEOUT 60 LABELS relay)
