# buzz-canvas-cli end to end against buzz-mock-relay (both as separate processes).
buzz_add_qtest(NAME test_cli SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli.cpp LIBS Qt6::Core TIMEOUT 120)
add_dependencies(test_cli buzz-canvas-cli buzz-mock-relay)
# What scripts rely on beyond the happy path: usage errors before the network, not found, the
# stdout/stderr contract, a private identity folder.
buzz_add_qtest(NAME test_cli_contract SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_contract.cpp
    LIBS Qt6::Core TIMEOUT 120)
add_dependencies(test_cli_contract buzz-canvas-cli buzz-mock-relay)
# `canvas set --expected-revision ID|none`: the relay's own conflict answers, for CAS scripts.
buzz_add_qtest(NAME test_cli_expected_revision
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_expected_revision.cpp LIBS Qt6::Core TIMEOUT 120)
add_dependencies(test_cli_expected_revision buzz-canvas-cli buzz-mock-relay)
