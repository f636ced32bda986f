# buzz-soak: the consistency soak (./dev soak SECONDS) and its short CI run.
add_executable(buzz-soak
    "${CMAKE_CURRENT_LIST_DIR}/soak_main.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/SoakLedger.h"
    "${CMAKE_CURRENT_LIST_DIR}/SoakClient.h" "${CMAKE_CURRENT_LIST_DIR}/SoakClient.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/SoakChecker.h" "${CMAKE_CURRENT_LIST_DIR}/SoakChecker.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/SoakPaging.h" "${CMAKE_CURRENT_LIST_DIR}/SoakPaging.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/SoakFaults.h" "${CMAKE_CURRENT_LIST_DIR}/SoakFaults.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/SoakReport.h" "${CMAKE_CURRENT_LIST_DIR}/SoakReport.cpp")
target_link_libraries(buzz-soak PRIVATE buzz_canvas buzz_relay buzz_compile_options)
set_target_properties(buzz-soak PROPERTIES AUTOMOC ON)
add_test(NAME soak_short COMMAND buzz-soak --seconds 30 --report "${CMAKE_CURRENT_BINARY_DIR}/soak-report.md")
set_tests_properties(soak_short PROPERTIES TIMEOUT 150 LABELS e2e
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=buzz.*.debug=false")
# Who owed a row a paging walk missed: the Bounded first page or a Covered later page.
buzz_add_qtest(NAME test_soak_paging
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_soak_paging.cpp" "${CMAKE_CURRENT_LIST_DIR}/SoakPaging.cpp"
    LIBS buzz_canvas TIMEOUT 30 LABELS e2e)
target_include_directories(test_soak_paging PRIVATE "${CMAKE_CURRENT_LIST_DIR}")
