# Routing and replication tests. The pure decision table links only the routing layer (and what
# is below it), never the rest of the relay.
buzz_add_qtest(NAME test_routing_decision
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_decision.cpp
    LIBS buzz_relay_routing TIMEOUT 60)

# Engine-level routing: divergent fixtures, failure rules, metrics (manual clock, no network).
buzz_add_qtest(NAME test_routing_engine SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_engine.cpp
    LIBS buzz_relay SQLite::SQLite3 TIMEOUT 60)
buzz_add_qtest(NAME test_routing_paging SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_paging.cpp
    LIBS buzz_relay TIMEOUT 60)
buzz_add_qtest(NAME test_routing_randomized SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_randomized.cpp
    LIBS buzz_relay TIMEOUT 120)
buzz_add_qtest(NAME test_routing_http SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_routing_http.cpp
    LIBS buzz_relay_testkit Qt6::Network TIMEOUT 60)
