# The connection state machine as the user sees it, with the relay behind the recording proxy
# (buzz_canvas_testsupport, defined in tests/canvas/service.cmake).
buzz_add_qtest(NAME test_ui_connection SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_connection.cpp"
    LIBS buzz_ui_test_harness buzz_canvas_testsupport TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_connection PROPERTIES AUTOMOC ON)
