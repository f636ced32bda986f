# CanvasService over a misbehaving connection (gateway errors, relay CLOSE of the live
# subscription). buzz_canvas_testsupport is defined in service.cmake.
buzz_add_qtest(NAME test_canvas_connection
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_connection.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
