# nostr::sha256 (every event id and signature check): the FIPS 180 vectors and every padding case
# against Qt's own SHA-256, whichever implementation the CPU gets.
buzz_add_qtest(NAME test_nostr_sha256 SOURCES "${CMAKE_CURRENT_LIST_DIR}/nostr/test_nostr_sha256.cpp"
    LIBS buzz_nostr TIMEOUT 60 LABELS nostr)
