# Issue 19 part A: people and time, channels, search and history, large canvases, diagnostics.
foreach(_suite people_time channels_live large_canvas search_history diagnostics)
    if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp")
        buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
            LIBS buzz_ui_test_harness TIMEOUT 180 LABELS ui)
        set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
    endif()
endforeach()
