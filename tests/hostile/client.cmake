# The client data layer (net/client, canvas services) in-process on the hostile relay.
buzz_add_qtest(NAME test_hostile_client SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_hostile_client.cpp"
    LIBS buzz_hostile_relay buzz_canvas TIMEOUT 180)
set_target_properties(test_hostile_client PROPERTIES AUTOMOC ON)
