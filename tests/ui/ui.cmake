# GUI suites for the desktop app (offscreen; each test starts its relay on 127.0.0.1:0).
add_library(buzz_ui_test_harness STATIC "${CMAKE_CURRENT_LIST_DIR}/UiTestHarness.h" "${CMAKE_CURRENT_LIST_DIR}/UiTestHarness.cpp")
target_link_libraries(buzz_ui_test_harness PUBLIC buzz_desktop buzz_canvas_testsupport Qt6::Test
    PRIVATE buzz_compile_options)

# reconcile: the header, the canvas and History agree on the current revision when the live
# subscription misses one (History, search and the re-check after the staleness budget).
foreach(_suite first_run conflict_merge history_restore draft_recovery paused_replica save_flows
        session_replica reconcile)
    buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
        LIBS buzz_ui_test_harness TIMEOUT 120 LABELS ui)
    set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
    # Some suites start the real app binary (--version, crash recovery).
    add_dependencies(test_ui_${_suite} buzz-canvas)
endforeach()

# The app plus a typist, for the crash-recovery suite: the shipping app has no test hooks.
add_executable(buzz-canvas-typist "${CMAKE_CURRENT_LIST_DIR}/typist_main.cpp")
target_link_libraries(buzz-canvas-typist PRIVATE buzz_desktop buzz_compile_options)
add_dependencies(test_ui_draft_recovery buzz-canvas-typist)
target_compile_definitions(test_ui_draft_recovery PRIVATE
    BUZZ_TYPIST_PATH="$<TARGET_FILE:buzz-canvas-typist>")

# README screenshots (not a test): ui_screenshots <dir>
add_executable(ui_screenshots "${CMAKE_CURRENT_LIST_DIR}/ui_screenshots.cpp")
target_link_libraries(ui_screenshots PRIVATE buzz_ui_test_harness buzz_compile_options)

