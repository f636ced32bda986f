# NIP-50 search and exact-pair hydration (issue 5): store-level, replica-routing, engine-level and
# end-to-end (HTTP + WebSocket through buzz_relay_testkit) tests.
set(_search_tests_dir "${CMAKE_CURRENT_LIST_DIR}")
buzz_add_qtest(NAME test_search_hydration
    SOURCES "${_search_tests_dir}/test_search_hydration.cpp" "${_search_tests_dir}/test_search_support.h"
    LIBS buzz_relay SQLite::SQLite3 TIMEOUT 60 LABELS relay)
target_include_directories(test_search_hydration PRIVATE "${CMAKE_SOURCE_DIR}")
buzz_add_qtest(NAME test_search_replica
    SOURCES "${_search_tests_dir}/test_search_replica.cpp" "${_search_tests_dir}/test_search_support.h"
    LIBS buzz_relay TIMEOUT 60 LABELS relay)
target_include_directories(test_search_replica PRIVATE "${CMAKE_SOURCE_DIR}")
buzz_add_qtest(NAME test_search_e2e SOURCES "${_search_tests_dir}/test_search_e2e.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
