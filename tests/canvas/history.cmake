# History that says who changed what (issue 31 items 4-6): parent selection, blame, revision
# labels and merge attribution as pure models, then the blame walk and the labels on the relay.
buzz_add_qtest(NAME test_revision_history SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_revision_history.cpp
    LIBS buzz_canvas TIMEOUT 60)
buzz_add_qtest(NAME test_blame_service SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_blame_service.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
# The labels are tags the relay must store and return as they came: on PostgreSQL too.
buzz_pg_variant(test_blame_service)
