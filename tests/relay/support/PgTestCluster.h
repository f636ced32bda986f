#pragma once

// The PostgreSQL pair ctest starts for the PostgreSQL runs of the relay suites
// (tests/support/pg.cmake): a suite runs against it when BUZZ_TEST_STORE=postgres, and skips,
// saying why, when that pair is missing (PgVariantGuard.cpp).

#include <optional>
#include <string>

namespace buzz::relay::test {

struct PgUrls
{
    std::string writer; // the primary
    std::string standby; // its streaming hot standby
};

class PgTestCluster
{
public:
    // Whether this run is a PostgreSQL run (BUZZ_TEST_STORE=postgres).
    static bool selected();
    // The pair's URLs (BUZZ_TEST_PG_CLUSTER's cluster.env), or nullopt with `why`.
    static std::optional<PgUrls> cluster(std::string *why = nullptr);
    // For a PostgreSQL run: URLs of an empty schema of this process's own (created once, then
    // emptied for each caller), already on the standby, whose replay is resumed and undelayed;
    // nullopt on an SQLite run. A failure aborts the process with why (a broken cluster is not a
    // test result).
    static std::optional<PgUrls> freshStore();
    // The schema freshStore() hands out.
    static std::string schemaName();
};

} // namespace buzz::relay::test
