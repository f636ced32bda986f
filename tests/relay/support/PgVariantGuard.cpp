// Linked into every relay suite that also runs against PostgreSQL (buzz_pg_variant in
// tests/support/pg.cmake). On such a run (BUZZ_TEST_STORE=postgres) without the PostgreSQL pair,
// the suite says why and ends before QTest starts: ctest reports it skipped, never passed.

#include "PgTestCluster.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
[[gnu::constructor]] void skipWithoutPostgres()
{
    if (!buzz::relay::test::PgTestCluster::selected())
        return;
    std::string why;
    if (buzz::relay::test::PgTestCluster::cluster(&why))
        return;
    std::printf("PostgreSQL tests skipped: %s\n", why.c_str());
    std::fflush(stdout);
    std::_Exit(0);
}
} // namespace
