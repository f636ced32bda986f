# `buzz-canvas-cli relay check` against buzz-mock-relay with a routed read replica: every row
# passes, on SQLite and (test_cli_relay_check_pg) on the PostgreSQL pair.
buzz_add_qtest(NAME test_cli_relay_check
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_relay_check.cpp
    LIBS buzz_relay_testkit Qt6::Core TIMEOUT 300)
add_dependencies(test_cli_relay_check buzz-canvas-cli buzz-mock-relay)
buzz_pg_variant(test_cli_relay_check)
