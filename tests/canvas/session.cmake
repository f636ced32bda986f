# CanvasSession (one open canvas) over the in-process relay behind the recording proxy.
buzz_add_qtest(NAME test_canvas_session SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_session.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
# The model-based test of CanvasSession: seeded random user actions and faults, with an oracle.
buzz_add_qtest(NAME test_canvas_session_model SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/test_canvas_session_model.cpp
    ${CMAKE_CURRENT_LIST_DIR}/SessionModelRun.h ${CMAKE_CURRENT_LIST_DIR}/SessionModelRun.cpp
    ${CMAKE_CURRENT_LIST_DIR}/SessionModelScenarios.cpp
    ${CMAKE_CURRENT_LIST_DIR}/SessionModelRelay.h ${CMAKE_CURRENT_LIST_DIR}/SessionModelRelay.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 600)
# Every transition of CanvasSession's state, with the invariants checked at each state it enters.
buzz_add_qtest(NAME test_session_invariants SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/test_session_invariants.cpp LIBS buzz_canvas_testsupport TIMEOUT 120)
