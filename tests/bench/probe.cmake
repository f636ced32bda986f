# store_probe: ingest and head-read phases of one engine, for callgrind instruction counts
# (load-independent before/after figures of a store change; see the header of store_probe.cpp).
add_executable(store_probe "${CMAKE_CURRENT_LIST_DIR}/store_probe.cpp")
target_link_libraries(store_probe PRIVATE buzz_relay buzz_compile_options)
