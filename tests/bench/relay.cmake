# relay_bench: WS ingest throughput (on disk, in memory, on PostgreSQL) vs single-core verify; store
# bytes per event and /query latency at 10k and 200k events; 500-pair hydration at 1M events; a
# SQLite / PostgreSQL table (PostgreSQL: a throwaway pair from tests/support/pg-cluster.sh).
add_executable(relay_bench "${CMAKE_CURRENT_LIST_DIR}/relay_bench.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/RelayBenchIngest.cpp" "${CMAKE_CURRENT_LIST_DIR}/BenchPostgres.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/HydrationBench.cpp" "${CMAKE_CURRENT_LIST_DIR}/BenchTable.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/WsLoadClient.cpp")
target_link_libraries(relay_bench PRIVATE buzz_relay_testkit SQLite::SQLite3 PkgConfig::LIBPQ
    buzz_compile_options)
target_compile_definitions(relay_bench PRIVATE BUZZ_BINARY_DIR="${CMAKE_BINARY_DIR}"
    BUZZ_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_dependencies(relay_bench buzz-mock-relay)
