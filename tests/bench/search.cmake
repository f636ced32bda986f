# search_bench: NIP-50 search p50/p99 and 500-pair exact hydration vs ID-only at 100k and 1M events.
add_executable(search_bench "${CMAKE_CURRENT_LIST_DIR}/search_bench.cpp")
target_link_libraries(search_bench PRIVATE buzz_relay buzz_compile_options)
