# CanvasWriteRules against the relay's ingest (the relay is the oracle).
buzz_add_qtest(NAME test_canvas_write_rules
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_write_rules.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
