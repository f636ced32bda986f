#pragma once

#include "RelayCheckReport.h"
#include "RelayProbe.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/Event.h"

#include <QString>

#include <chrono>
#include <optional>

namespace buzz::cli {

// What every group of `relay check` works with: the probe (HTTP as sent), the connection (its
// WebSocket signs in with NIP-42 and carries the live subscription), the report, and the
// throwaway channel the battery runs in.
struct RelayCheckContext
{
    RelayProbe &probe;
    client::RelayConnection &connection;
    RelayCheckReport &report;
    QString channel; // empty when the relay refused to create one
    std::optional<QString> adminToken; // --admin-token: the admin-only rows
    std::chrono::milliseconds timeout; // for one answer; convergence waits longer
    // The canvas head the compare-and-swap rows left behind (the last write the relay accepted).
    std::optional<nostr::Event> head;
    // The longest a write took to show on a display read (routed.lag), when measured.
    std::optional<qint64> routedLagMaxMs;
};

} // namespace buzz::cli
