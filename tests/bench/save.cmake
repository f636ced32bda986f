# save_bench: canvas save round trip and display head read p50/p99 over loopback (not a ctest test).
add_executable(save_bench "${CMAKE_CURRENT_LIST_DIR}/save_bench.cpp")
target_link_libraries(save_bench PRIVATE buzz_canvas_testsupport buzz_compile_options)
