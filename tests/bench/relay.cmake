# relay_bench: WS ingest throughput (on disk and in memory) vs single-core verify; store bytes per
# event and /query latency at 10k and 200k events on disk.
add_executable(relay_bench "${CMAKE_CURRENT_LIST_DIR}/relay_bench.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/WsLoadClient.cpp")
target_link_libraries(relay_bench PRIVATE buzz_relay_testkit SQLite::SQLite3 buzz_compile_options)
target_compile_definitions(relay_bench PRIVATE BUZZ_BINARY_DIR="${CMAKE_BINARY_DIR}")
add_dependencies(relay_bench buzz-mock-relay)
