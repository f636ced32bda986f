# pg_import_bench: `buzz-mock-relay import` of a cached JSON Lines export (BUZZ_BENCH_IMPORT_EVENTS,
# default 100,000; issue 27 item 8 asks for 1,000,000) into PostgreSQL's throwaway primary +
# standby, then database size per event, the standby's head read p99 and 500-pair hydration p99.
add_executable(pg_import_bench "${CMAKE_CURRENT_LIST_DIR}/pg_import_bench.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/RelayBenchIngest.cpp" "${CMAKE_CURRENT_LIST_DIR}/BenchPostgres.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/HydrationBench.cpp" "${CMAKE_CURRENT_LIST_DIR}/WsLoadClient.cpp")
target_link_libraries(pg_import_bench PRIVATE buzz_relay_testkit SQLite::SQLite3 PkgConfig::LIBPQ
    buzz_compile_options)
target_compile_definitions(pg_import_bench PRIVATE BUZZ_BINARY_DIR="${CMAKE_BINARY_DIR}"
    BUZZ_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_dependencies(pg_import_bench buzz-mock-relay)
