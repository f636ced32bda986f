#pragma once

// 500-pair exact hydration (search::ExactPairHydrator, the path every search answer is hydrated
// by) against a store of 1M events, on SQLite and on PostgreSQL. The events are loaded in bulk, not
// through the engine (1M signed ingests would take minutes): synthetic kind-9 notes with random
// ids and signatures (nothing is verified on this path) spread over eleven months, so PostgreSQL
// keeps them in eleven month partitions. SQLite: store::SqliteRowWriter in 20k-row transactions,
// without the full-text index (hydration never reads it); PostgreSQL: COPY into the relay's own
// schema (PgSchema, opened by store::PgStore), GIN index and all.

#include "BenchPostgres.h"
#include "relay/model/StoredEvent.h"
#include "relay/search/EventPair.h"

#include <QString>

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace buzz::relay::store {
class PgConnection;
}

namespace buzz::relay::bench {

struct HydrationFigures
{
    double loadSeconds = 0; // bulk load of the events
    double p50Ms = 0, p99Ms = 0; // wall time of one 500-pair hydration, 40 batches
    double cpuP50Ms = 0; // this thread's CPU time of one (the relay side only)
    std::optional<double> standbyP50Ms, standbyP99Ms; // PostgreSQL: the same lookup on the standby
    std::size_t found = 0, asked = 0; // rows returned / pairs asked, over all batches
};

class HydrationBench
{
public:
    static constexpr int kBatches = 40;
    static constexpr int kPairs = 500;

    // A store::SqliteStore in a new directory under `parent`.
    static std::optional<HydrationFigures> sqlite(int events, const QString &parent);
    // `events` more rows in the relay schema of `urls` (it may hold rows already), hydrated on the
    // writer through the hydrator and on the standby through the same statement
    // (PgExactPairLookup), once it has replayed the load.
    static std::optional<HydrationFigures> postgres(int events, const PgUrls &urls,
                                                    BenchPostgres &cluster);
    // Hydration of `sample` (pairs stored in community `local` of `urls`' schema) on the writer
    // and, once it has replayed everything, on the standby.
    static std::optional<HydrationFigures>
    measurePostgres(const PgUrls &urls, BenchPostgres &cluster,
                    const std::vector<search::EventPair> &sample);
    // COPY `count` events from `next` into the events table of `connection`'s schema (the store's
    // columns, no event_tags or commit rows: reads by channel, kind and id need none), every
    // 1/5000th of them into `sample`, then ANALYZE.
    static bool copyEvents(store::PgConnection &connection, int count,
                           const std::function<StoredEvent()> &next,
                           std::vector<search::EventPair> *sample);
    // `chars` random lower-case hex digits (ids, signatures of bulk rows).
    static std::string randomHex(std::mt19937_64 &random, int chars);
};

} // namespace buzz::relay::bench
