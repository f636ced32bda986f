#pragma once

#include "net/nostr/Filter.h"
#include "relay/model/ReadPath.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay {

// What a read tells the router so it can pick a pool: who reads, whether the read gates a write,
// and the filters (the router derives each one's shape and the proof a replica must show).
struct ReadRequest
{
    ReadPath path = ReadPath::BridgeQuery;
    bool strong = false; // "consistency":"strong"
    bool mustUseWriter = false; // permission reads, CAS, channel metadata (39000)
    std::optional<std::string> channel; // the one channel the read is pinned to, if any
    std::optional<std::int64_t> until; // page upper bound, if any
    const std::vector<nostr::Filter> *filters = nullptr; // null: a lookup without filters
    std::string community; // scopes the thread-root check of post-verified thread pages
    // Set on the re-run of a read whose settlement asked for the writer: that read was counted
    // once already and must be served by the writer, whatever the replicas could prove now.
    std::optional<std::string> forceWriterReason;

    // A subscription's history (WS REQ), read after the subscription went live: where each
    // filter's rows can come from. A replica serves it only once it holds every commit those
    // scopes had by then (replication::ScopePositions); later commits reach it live.
    struct LiveScope
    {
        std::vector<std::string> channels;
        bool outsideChannels = false; // the community's rows outside any channel
        std::optional<std::vector<int>> kinds; // nullopt: every kind
    };
    std::vector<LiveScope> liveScopes; // empty: not a subscription's history
};

// What a finished read reports back to the router: replica failures and thread pages can only be
// settled once the rows are known.
struct ReadAttempt
{
    struct Page
    {
        std::size_t rows = 0; // rows the filter's SQL returned
        std::optional<std::int64_t> newestCreatedAt; // greatest created_at among them
    };
    bool ok = true;
    // A statement was cut off by the reader statement timeout (store::ReadStatus::timedOut).
    bool timedOut = false;
    std::vector<Page> pages; // one per filter, in filter order
};

// The router's verdict on a finished read: keep it, run the same read again on the writer (with
// ReadRequest::forceWriterReason = reason), or surface a statement timeout.
struct ReadSettlement
{
    enum class Action { Accept, RerunOnWriter, TimedOut };
    Action action = Action::Accept;
    std::string reason;
};

} // namespace buzz::relay
