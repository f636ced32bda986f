# Network-level relay tests (HTTP bridge, WebSocket, auth) and the reusable fixture other relay,
# canvas and client tests link: buzz_relay_testkit (RelayTestFixture, HttpTestClient, WsTestClient).
add_library(buzz_relay_testkit STATIC
    "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixture.h" "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixture.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixtureHttpClient.h"
    "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixtureHttpClient.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixtureWsClient.h"
    "${CMAKE_CURRENT_LIST_DIR}/RelayTestFixtureWsClient.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/RelayProcess.h" "${CMAKE_CURRENT_LIST_DIR}/RelayProcess.cpp")
target_include_directories(buzz_relay_testkit PUBLIC "${CMAKE_CURRENT_LIST_DIR}")
target_link_libraries(buzz_relay_testkit PUBLIC buzz_relay Qt6::Network Qt6::WebSockets Qt6::Test
    PRIVATE buzz_compile_options)

set(_server_tests_dir "${CMAKE_CURRENT_LIST_DIR}")
buzz_add_qtest(NAME test_server_http SOURCES "${_server_tests_dir}/test_server_http.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
buzz_add_qtest(NAME test_server_auth SOURCES "${_server_tests_dir}/test_server_auth.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
buzz_add_qtest(NAME test_server_ws SOURCES "${_server_tests_dir}/test_server_ws.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
buzz_add_qtest(NAME test_server_crash SOURCES "${_server_tests_dir}/test_server_crash.cpp"
    LIBS buzz_relay_testkit TIMEOUT 120 LABELS relay)
if(TARGET buzz-mock-relay)
    add_dependencies(test_server_crash buzz-mock-relay)
endif()
buzz_add_qtest(NAME test_server_liveness SOURCES "${_server_tests_dir}/test_server_liveness.cpp"
    LIBS buzz_relay_testkit TIMEOUT 60 LABELS relay)
buzz_add_qtest(NAME test_server_outbound_queue
    SOURCES "${_server_tests_dir}/test_server_outbound_queue.cpp" LIBS buzz_relay TIMEOUT 60
    LABELS relay)
