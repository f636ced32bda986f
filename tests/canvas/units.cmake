# Canvas data layer unit tests (no relay needed).
buzz_add_qtest(NAME test_merge3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_merge3.cpp LIBS buzz_canvas TIMEOUT 60)
buzz_add_qtest(NAME test_ancestry SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_ancestry.cpp LIBS buzz_canvas TIMEOUT 60)
buzz_add_qtest(NAME test_draftstore SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_draftstore.cpp LIBS buzz_canvas TIMEOUT 60)
buzz_add_qtest(NAME test_identity SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_identity.cpp LIBS buzz_canvas TIMEOUT 60)
buzz_add_qtest(NAME test_canvas_drafts SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_drafts.cpp LIBS buzz_canvas TIMEOUT 60)
