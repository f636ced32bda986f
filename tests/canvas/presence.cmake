# Who is here and changes as they happen (issue 31 items 2 and 3), without widgets: the models
# with clocks of their own, and the services between clients on the real relay.
buzz_add_qtest(NAME test_presence SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_presence.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
buzz_add_qtest(NAME test_live_changes SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_live_changes.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
