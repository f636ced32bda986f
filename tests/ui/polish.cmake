# Issue 19 part B: focus, keys and dialogs; editing keys; layout; accessibility (offscreen) and
# the AT-SPI check (Xvfb); translations.
foreach(_suite focus_keys accessibility layout editing translations)
    buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
        LIBS buzz_ui_test_harness TIMEOUT 120 LABELS ui)
    set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
endforeach()
target_compile_definitions(test_ui_translations PRIVATE BUZZ_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
# The German UI: the user's language comes from LANGUAGE, as on a desktop.
set_tests_properties(test_ui_translations PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=buzz.*.debug=false;LANGUAGE=de")

# The real app driven from outside through AT-SPI only (tests/ui/atspi): finds it, edits, saves,
# reads the canvas and the save state, restores a revision from History, reads its blame, and sees
# a second person's app (on the first one's relay) arrive in the presence row and leave. Xvfb and a private D-Bus
# session with the AT-SPI bus; exit 77 (skipped) only when that bus cannot start.
add_test(NAME test_ui_atspi
    COMMAND "${CMAKE_CURRENT_LIST_DIR}/atspi/run_atspi_check.sh" "$<TARGET_FILE:buzz-canvas>")
set_tests_properties(test_ui_atspi PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "ui;atspi")

# The monospace views have equal glyph advances whichever fonts are installed; the _hostile run has
# fontconfig resolve "monospace" to a proportional font first.
buzz_add_qtest(NAME test_ui_monospace_font
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_monospace_font.cpp"
    LIBS buzz_ui TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_monospace_font PROPERTIES AUTOMOC ON)
add_test(NAME test_ui_monospace_font_hostile COMMAND test_ui_monospace_font)
set_tests_properties(test_ui_monospace_font_hostile PROPERTIES TIMEOUT 120 LABELS ui
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=buzz.*.debug=false;FONTCONFIG_FILE=${CMAKE_CURRENT_LIST_DIR}/fonts/monospace-is-proportional.conf")
