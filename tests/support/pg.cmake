# The PostgreSQL pair every PostgreSQL suite shares: one primary + streaming hot standby per ctest
# run, started by the fixture test pg_cluster_start (tests/support/pg-cluster.sh) and stopped by
# pg_cluster_stop. The suites find it through BUZZ_TEST_PG_CLUSTER (the cluster.env it wrote);
# without PostgreSQL 15 that file says why and every PostgreSQL suite skips, saying so.
#
# They run one at a time (RESOURCE_LOCK): pausing the standby's replay, as the routing suites do,
# pauses it for every database on it.
set(BUZZ_PG_CLUSTER_DIR "${CMAKE_BINARY_DIR}/pg-cluster")
set(BUZZ_PG_CLUSTER_ENV "${BUZZ_PG_CLUSTER_DIR}/cluster.env")
set(BUZZ_PG_CLUSTER_SCRIPT "${CMAKE_SOURCE_DIR}/tests/support/pg-cluster.sh")

add_test(NAME pg_cluster_start COMMAND "${BUZZ_PG_CLUSTER_SCRIPT}" start "${BUZZ_PG_CLUSTER_DIR}"
    --fsync off)
set_tests_properties(pg_cluster_start PROPERTIES FIXTURES_SETUP pg_cluster TIMEOUT 120
    LABELS postgres)
add_test(NAME pg_cluster_stop COMMAND "${BUZZ_PG_CLUSTER_SCRIPT}" stop "${BUZZ_PG_CLUSTER_DIR}")
set_tests_properties(pg_cluster_stop PROPERTIES FIXTURES_CLEANUP pg_cluster TIMEOUT 120
    LABELS postgres)

# Marks an existing test as a PostgreSQL suite: needs the pair, runs alone on it, and reports a
# skip (no PostgreSQL) as skipped rather than passed.
function(buzz_pg_test name)
    get_test_property(${name} ENVIRONMENT _environment)
    if(NOT _environment)
        set(_environment "")
    endif()
    list(APPEND _environment "BUZZ_TEST_PG_CLUSTER=${BUZZ_PG_CLUSTER_ENV}")
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED pg_cluster
        RESOURCE_LOCK pg_cluster ENVIRONMENT "${_environment}"
        SKIP_REGULAR_EXPRESSION "PostgreSQL tests skipped")
    set_property(TEST ${name} APPEND PROPERTY LABELS postgres)
endfunction()

# Runs an existing Qt Test suite a second time, as NAME_pg, against the pair: its harnesses open
# the PostgreSQL store on a schema of their own (tests/relay/support/PgTestCluster) when
# BUZZ_TEST_STORE=postgres, and PgVariantGuard ends it as skipped when there is no pair.
function(buzz_pg_variant name)
    target_sources(${name} PRIVATE "${CMAKE_SOURCE_DIR}/tests/relay/support/PgVariantGuard.cpp")
    add_test(NAME ${name}_pg COMMAND ${name})
    get_test_property(${name} TIMEOUT _timeout)
    get_test_property(${name} LABELS _labels)
    list(REMOVE_ITEM _labels fast) # the pair makes a suite slow, whatever its SQLite twin takes
    set_tests_properties(${name}_pg PROPERTIES TIMEOUT ${_timeout}
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=buzz.*.debug=false;BUZZ_TEST_STORE=postgres"
        LABELS "${_labels}")
    buzz_pg_test(${name}_pg)
endfunction()

# The pair itself: a row written on the primary is read back on the standby, which is in recovery
# and refuses writes.
add_test(NAME pg_cluster_smoke COMMAND "${CMAKE_SOURCE_DIR}/tests/support/pg-smoke.sh")
set_tests_properties(pg_cluster_smoke PROPERTIES TIMEOUT 60)
buzz_pg_test(pg_cluster_smoke)
