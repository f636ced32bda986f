# buzz-canvas-cli as its own process on the hostile relay (served from the test's event loop).
buzz_add_qtest(NAME test_hostile_cli SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_hostile_cli.cpp"
    LIBS buzz_hostile_relay TIMEOUT 240)
set_target_properties(test_hostile_cli PROPERTIES AUTOMOC ON)
add_dependencies(test_hostile_cli buzz-canvas-cli)
