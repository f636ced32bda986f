# Who is here (issue 31 item 2), without widgets: the model with a clock of its own, and the
# service between clients on the real relay.
buzz_add_qtest(NAME test_presence SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_presence.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
