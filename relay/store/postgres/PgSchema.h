#pragma once

#include <cstdint>
#include <string>

namespace buzz::relay::store {

class PgConnection;

// The PostgreSQL schema (in the connection's current schema, so a test or a second relay can live
// in a schema of its own): the real relay's events table (docs/buzz-protocol.md
// §Storage and ordering) — created_at TIMESTAMPTZ, ids, pubkeys and signatures BYTEA, tags JSONB,
// soft deletes — range partitioned by month of created_at (events_pYYYY_MM, plus events_past and
// events_future catch-alls), and a generated tsvector with a GIN index for NIP-50 search. Each
// index serves a statement the relay runs (test_search_hydration_pg proves the hydration one with
// EXPLAIN).
class PgSchema
{
public:
    static constexpr const char *kVersion = "pg-3";
    // Monthly partitions start here; earlier rows go to events_past.
    static constexpr int kFirstYear = 2026;
    static constexpr int kFirstMonth = 1;
    // ensure_future_partitions(3), as the real relay does at start.
    static constexpr int kFutureMonths = 3;

    // Creates what is missing and the month partitions up to `nowSec` + kFutureMonths (moving any
    // row of those months out of events_future). Idempotent; one transaction. False: `error`.
    static bool apply(PgConnection &connection, std::int64_t nowSec, std::string &error);

    // "events_p2026_09" for the month holding `unixSeconds`, or events_past / events_future.
    static std::string partitionFor(std::int64_t unixSeconds, std::int64_t lastMonthStartSec);
    // First second (UTC) of the month `months` after the one holding `unixSeconds`.
    static std::int64_t monthStart(std::int64_t unixSeconds, int months = 0);
    static std::string monthName(std::int64_t monthStartSec); // "events_p2026_09"
};

} // namespace buzz::relay::store
