# Issue 19 part B: focus, keys and dialogs; editing keys; layout; accessibility (offscreen);
# translations.
foreach(_suite focus_keys accessibility layout editing translations)
    buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
        LIBS buzz_ui_test_harness TIMEOUT 120 LABELS ui)
    set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
endforeach()
target_compile_definitions(test_ui_translations PRIVATE BUZZ_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
# The German UI: the user's language comes from LANGUAGE, as on a desktop.
set_tests_properties(test_ui_translations PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=buzz.*.debug=false;LANGUAGE=de")
