# routing_bench: share of history pages served by replicas (lag 0 / 200 ms / 2 s, budget 1 s) and
# the latency routing adds to a history read versus writer-only.
add_executable(routing_bench "${CMAKE_CURRENT_LIST_DIR}/routing_bench.cpp")
target_link_libraries(routing_bench PRIVATE buzz_relay buzz_compile_options)
