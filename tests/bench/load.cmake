# load_bench: N WebSocket clients against a buzz-mock-relay process (not a ctest test).
add_executable(load_bench "${CMAKE_CURRENT_LIST_DIR}/load_bench.cpp")
target_link_libraries(load_bench PRIVATE buzz_relay_testkit buzz_nostr Qt6::Core Qt6::Network Qt6::WebSockets
    buzz_compile_options)
target_compile_definitions(load_bench PRIVATE BUZZ_BINARY_DIR="${CMAKE_BINARY_DIR}")
add_dependencies(load_bench buzz-mock-relay)
