# CanvasSession (one open canvas) over the in-process relay behind the recording proxy.
buzz_add_qtest(NAME test_canvas_session SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_session.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
