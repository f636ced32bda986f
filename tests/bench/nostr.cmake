# nostr_bench: protocol-core throughput against a bare libsecp256k1 verify loop (not a ctest test).
add_executable(nostr_bench "${CMAKE_CURRENT_LIST_DIR}/nostr_bench.cpp")
target_link_libraries(nostr_bench PRIVATE buzz_nostr PkgConfig::SECP256K1 buzz_compile_options)
