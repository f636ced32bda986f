# Issue 31 items 2 and 3: who is here (two real windows of two identities on one relay, the real
# app quitting on a signal) and changes as they happen.
foreach(_suite presence_live live_changes)
    if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp")
        buzz_add_qtest(NAME test_ui_${_suite} SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_${_suite}.cpp"
            LIBS buzz_ui_test_harness TIMEOUT 180 LABELS ui)
        set_target_properties(test_ui_${_suite} PROPERTIES AUTOMOC ON)
        add_dependencies(test_ui_${_suite} buzz-canvas)
    endif()
endforeach()
