#pragma once

#include "relay/model/OutboundBudget.h"
#include "relay/model/StoredEvent.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay {

struct QueryResult
{
    enum class Status {
        Ok,
        BadRequest, // 400 {"error":message}
        Forbidden, // 403 {"error":message}; WS CLOSED with message
        TimedOut, // 503 {"error":"query timed out"}; WS CLOSED "error: query timed out"
        Retryable, // 503 + Retry-After; WS CLOSED "error: retryable: …"
        Internal, // 500 {"error":"internal server error"}
    };
    Status status = Status::Ok;
    std::string message;
    std::vector<StoredEvent>
        events; // filters' results concatenated in filter order (HTTP) or de-duplicated (WS)
    std::int64_t count = 0; // for count()
    std::string route = "writer"; // "writer" | "replica"
    std::string routeReason = "disabled";
    // A replica's answer: its name ("replica-1") and how old the data it proved was, in ms
    // (the time since the writer committed the heartbeat its snapshot replayed). -1: the writer.
    std::string replica;
    std::int64_t replicaDataAgeMs = -1;

    // What the relay tells the client about the route (X-Buzz-Read-Route, and the EOSE of a
    // subscription's history): "writer; reason=strong" or
    // "replica; reason=fresh; replica=replica-1; age_ms=180" (relay/README.md "Read routing").
    std::string routeDescription() const
    {
        std::string out = route + "; reason=" + routeReason;
        if (!replica.empty())
            out += "; replica=" + replica + "; age_ms=" + std::to_string(replicaDataAgeMs);
        return out;
    }
    // The events' share of the relay-wide outbound budget, held while they are (null: none).
    std::shared_ptr<OutboundBudget::Hold> hold;
};

// Subscription admission for WS REQ: empty when allowed, else the CLOSED reason
// ("restricted: not a channel member", "restricted: p-gated events require #p matching your
// pubkey", …).
using AdmissionResult = std::optional<std::string>;

} // namespace buzz::relay
