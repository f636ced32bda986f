# Engine-level tests of the relay data side (store, ingest, query): direct calls, no network.
buzz_add_qtest(NAME test_engine_canvas_cas SOURCES test_engine_canvas_cas.cpp LIBS buzz_relay TIMEOUT 60)
buzz_add_qtest(NAME test_engine_ingest SOURCES test_engine_ingest.cpp LIBS buzz_relay SQLite::SQLite3 TIMEOUT 60)
buzz_add_qtest(NAME test_engine_query SOURCES test_engine_query.cpp LIBS buzz_relay SQLite::SQLite3 TIMEOUT 60)
# Canvas CAS over real HTTP and WebSocket (uses the network side's fixture, defined in server.cmake).
buzz_add_qtest(NAME test_engine_http_cas SOURCES test_engine_http_cas.cpp LIBS buzz_relay_testkit TIMEOUT 60)
buzz_add_qtest(NAME test_engine_group_commit SOURCES test_engine_group_commit.cpp LIBS buzz_relay SQLite::SQLite3 TIMEOUT 120)
