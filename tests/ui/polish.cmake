# Issue 19 part B: focus, keys and dialogs; editing keys; layout; accessibility (offscreen).
foreach(_suite focus_keys accessibility layout editing)
    buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
        LIBS buzz_ui_test_harness TIMEOUT 120 LABELS ui)
    set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
endforeach()
