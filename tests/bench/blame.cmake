# blame_bench: History's blame on a 200-revision canvas, cold (pages read over loopback), cached
# and after one more revision (not a ctest test).
add_executable(blame_bench "${CMAKE_CURRENT_LIST_DIR}/blame_bench.cpp")
target_link_libraries(blame_bench PRIVATE buzz_canvas_testsupport buzz_compile_options)
