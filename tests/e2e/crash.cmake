# Crash harness: repeated SIGKILL of a buzz-mock-relay process during concurrent WS ingest.
buzz_add_qtest(NAME test_e2e_crash_repeated SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_crash_repeated.cpp"
    LIBS buzz_relay_testkit TIMEOUT 180 LABELS e2e)
add_dependencies(test_e2e_crash_repeated buzz-mock-relay)
