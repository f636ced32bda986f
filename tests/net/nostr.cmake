# Protocol-core (buzz_nostr) tests: public vectors in tests/data plus the relay's failure rules.
set(_nostr_dir "${CMAKE_CURRENT_LIST_DIR}/nostr")
buzz_add_qtest(NAME test_nostr_event SOURCES "${_nostr_dir}/test_nostr_event.cpp" "${_nostr_dir}/TestData.h"
    LIBS buzz_nostr TIMEOUT 60 LABELS nostr)
buzz_add_qtest(NAME test_nostr_nip19 SOURCES "${_nostr_dir}/test_nostr_nip19.cpp" "${_nostr_dir}/TestData.h"
    LIBS buzz_nostr TIMEOUT 60 LABELS nostr)
buzz_add_qtest(NAME test_nostr_filter SOURCES "${_nostr_dir}/test_nostr_filter.cpp" LIBS buzz_nostr TIMEOUT 60
    LABELS nostr)
buzz_add_qtest(NAME test_nostr_auth SOURCES "${_nostr_dir}/test_nostr_auth.cpp" LIBS buzz_nostr TIMEOUT 60
    LABELS nostr)
