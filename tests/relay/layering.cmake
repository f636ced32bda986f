# The relay's layer direction (relay/README.md): no file under relay/ includes a layer above its
# own. The second test runs the same check on a fixture with one upward include and passes only
# if the check names it, so the check itself cannot silently stop failing.
set(_layering_dir "${CMAKE_CURRENT_LIST_DIR}/layering")
add_test(NAME relay_layering
    COMMAND ${CMAKE_COMMAND} -DRELAY_DIR=${CMAKE_SOURCE_DIR}/relay -P "${_layering_dir}/check_layering.cmake")
add_test(NAME relay_layering_rejects_upward
    COMMAND ${CMAKE_COMMAND} -DRELAY_DIR=${_layering_dir}/upward/relay -P "${_layering_dir}/check_layering.cmake")
set_tests_properties(relay_layering_rejects_upward PROPERTIES PASS_REGULAR_EXPRESSION
    "relay/store/UpwardInclude.h includes relay/search/SearchIndex.h: store may not use search")
set_tests_properties(relay_layering relay_layering_rejects_upward PROPERTIES LABELS relay TIMEOUT 60)
