#pragma once

// relay_bench's WebSocket ingest figures and the helpers they print with: a buzz-mock-relay
// process (SQLite on disk, in memory, or PostgreSQL, by its arguments) fed by 4 connections, its
// CPU per event by thread from /proc, events per group commit from /metrics.

#include "RelayTestFixture.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QProcess;

namespace buzz::relay::bench {

using test::TestIdentity;

// One BENCH line (tests/bench/README.md); `anchor` null: no anchor and no ratio.
void printBench(const char *name, double value, const char *unit, const char *target,
                const char *anchor, double anchorValue, double ratio);
std::vector<nostr::Event> signNotes(const TestIdentity &who, int count, std::int64_t now,
                                    const std::string &tag);
// Single-core Event::verify rate over pre-signed events: the anchor of every ingest ratio.
double bareVerifyRate(const std::vector<nostr::Event> &events);
// Single-core parse + verify rate (Event::fromJson of each event's wire JSON, then
// Event::verify): what `buzz-canvas-cli event verify` does per event, and the work a relay cannot
// skip; the anchor of issue 27's PostgreSQL ingest and relay CPU targets.
// Its CPU time (the thread's, so the machine's other load does not inflate it) per event is the
// figure relay CPU per event is held against.
struct ParseVerify
{
    double rate = 0; // events/s, wall clock
    double cpuUsPerEvent = 0; // CLOCK_THREAD_CPUTIME_ID
};
ParseVerify parseVerifyRate(const std::vector<nostr::Event> &events);
// A directory for an on-disk store (see the .cpp); null when it cannot be made.
std::unique_ptr<QTemporaryDir> diskDirectory();

struct IngestCost
{
    double relayCpuUsPerEvent = 0; // every thread of the relay process
    double eventsPerCommit = 0;
};

// Events/s acknowledged over 4 WebSocket connections (the lean client, kWindow in flight each)
// by a relay started with `relayArguments` (e.g. --data DIR, or --database-url URL); prints the
// relay's CPU per event by thread under `prefix`, and fills `cost` when given.
double wsIngestRate(const std::vector<TestIdentity> &identities, int perConnection,
                    const std::string &prefix, const QStringList &relayArguments,
                    IngestCost *cost = nullptr);
// The same in memory with the tests' QWebSocket client, for comparison.
double wsIngestRateQtClient(const std::vector<TestIdentity> &identities, int perConnection);

} // namespace buzz::relay::bench
