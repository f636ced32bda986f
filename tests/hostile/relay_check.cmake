# `buzz-canvas-cli relay check` against a relay without canvas compare-and-swap (the honest mode
# of the scripted relay): it fails, naming the CAS rows.
buzz_add_qtest(NAME test_hostile_relay_check
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_hostile_relay_check.cpp"
    LIBS buzz_hostile_relay TIMEOUT 240)
set_target_properties(test_hostile_relay_check PROPERTIES AUTOMOC ON)
add_dependencies(test_hostile_relay_check buzz-canvas-cli)
