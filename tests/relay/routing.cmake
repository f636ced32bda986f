# Routing and replication tests (issue 4). The pure decision table compiles the routing sources
# directly so it never waits on the rest of the relay library.
file(GLOB _buzz_routing_pure_sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/relay/routing/*.cpp")
buzz_add_qtest(NAME test_routing_decision
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_decision.cpp ${_buzz_routing_pure_sources}
    LIBS Qt6::Core TIMEOUT 60)
target_include_directories(test_routing_decision PRIVATE "${CMAKE_SOURCE_DIR}")

# Engine-level routing: divergent fixtures, failure rules, metrics (manual clock, no network).
buzz_add_qtest(NAME test_routing_engine SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_engine.cpp
    LIBS buzz_relay SQLite::SQLite3 TIMEOUT 60)
buzz_add_qtest(NAME test_routing_paging SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_paging.cpp
    LIBS buzz_relay TIMEOUT 60)
buzz_add_qtest(NAME test_routing_randomized SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_randomized.cpp
    LIBS buzz_relay TIMEOUT 120)
buzz_add_qtest(NAME test_routing_http SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_http.cpp
    LIBS buzz_relay_testkit Qt6::Network TIMEOUT 60)
