# Shared protocol rules (isNewer, named kinds, build-and-sign).
buzz_add_qtest(NAME test_nostr_rules SOURCES "${CMAKE_CURRENT_LIST_DIR}/nostr/test_nostr_rules.cpp"
    LIBS buzz_nostr TIMEOUT 60 LABELS nostr)
