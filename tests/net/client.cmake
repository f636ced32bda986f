# buzz_client: error classification (no network) and RelaySocket against the in-process relay.
buzz_add_qtest(NAME test_client_errors SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_client_errors.cpp LIBS buzz_client TIMEOUT 60)
buzz_add_qtest(NAME test_client_subscription SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_client_subscription.cpp LIBS buzz_client TIMEOUT 60)
buzz_add_qtest(NAME test_client_socket SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_client_socket.cpp
    LIBS buzz_client buzz_relay_testkit TIMEOUT 60)
# The connection state machine under the recording proxy's faults (buzz_canvas_testsupport is
# defined in tests/canvas/service.cmake; targets resolve at generate time).
buzz_add_qtest(NAME test_client_connection
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_client_connection.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
buzz_add_qtest(NAME test_client_signal_within
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_client_signal_within.cpp LIBS buzz_client TIMEOUT 60)
