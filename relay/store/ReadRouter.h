#pragma once

#include "relay/RelayEngine.h"
#include "relay/store/ReadLease.h"

#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

class Database;

// What a read needs to know to pick its pool. The routing issue fills in the freshness inputs
// (channel pinned, `until`, thread page, …); today only `path` and `mustUseWriter` matter.
struct ReadRequest
{
    ReadPath path = ReadPath::BridgeQuery;
    bool strong = false; // "consistency":"strong"
    bool mustUseWriter = false; // permission reads, CAS, channel metadata (39000)
    std::optional<std::string> channel; // the one channel the read is pinned to, if any
    std::optional<std::int64_t> until; // page upper bound, if any
    // Routing issue: the filters being read (the router derives each one's shape) and the
    // community (thread-root check); set by a settle that asked for a writer re-run.
    const std::vector<nostr::Filter> *filters = nullptr;
    std::string community;
    std::optional<std::string> forceWriterReason;
};

// THE seam of the read path: every read asks the router for a connection. The routing issue
// replaces WriterOnlyReadRouter with one that may answer with a replica connection.
class ReadRouter
{
public:
    virtual ~ReadRouter() = default;
    virtual ReadLease route(const ReadRequest &request) = 0;
};

// Today's behaviour (and the routing issue's budget = 0): every read on the writer database.
class WriterOnlyReadRouter : public ReadRouter
{
public:
    explicit WriterOnlyReadRouter(Database &database)
        : m_database(database)
    { }
    ReadLease route(const ReadRequest &request) override;

private:
    Database &m_database;
};

} // namespace buzz::relay::store
