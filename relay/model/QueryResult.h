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
    // The events' share of the relay-wide outbound budget, held while they are (null: none).
    std::shared_ptr<OutboundBudget::Hold> hold;
};

// Subscription admission for WS REQ: empty when allowed, else the CLOSED reason
// ("restricted: not a channel member", "restricted: p-gated events require #p matching your
// pubkey", …).
using AdmissionResult = std::optional<std::string>;

} // namespace buzz::relay
