# CanvasService against a relay with a paused read replica and a non-zero read budget:
# display reads are stale, every write-gating decision still comes from the writer.
# buzz_canvas_testsupport is defined in service.cmake (targets resolve at generate time).
buzz_add_qtest(NAME test_canvas_replica SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_replica.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 60)
add_dependencies(test_canvas_replica buzz-canvas-cli)
target_compile_definitions(test_canvas_replica PRIVATE
    BUZZ_CANVAS_CLI="$<TARGET_FILE:buzz-canvas-cli>")
