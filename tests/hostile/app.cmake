# The desktop app (a real DesktopSession and MainWindow, offscreen) on the hostile relay.
buzz_add_qtest(NAME test_hostile_app SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_hostile_app.cpp"
    LIBS buzz_hostile_relay buzz_ui_test_harness TIMEOUT 180 LABELS ui)
set_target_properties(test_hostile_app PROPERTIES AUTOMOC ON)
target_include_directories(test_hostile_app PRIVATE "${CMAKE_SOURCE_DIR}/tests/ui")
