#pragma once

#include "relay/store/postgres/PgConnection.h"

#include <memory>
#include <mutex>
#include <string>

namespace buzz::relay::store {

// One connection to the writer database for the small state every relay process of a deployment
// shares (the presence table, the NIP-98 replay cache: store/postgres/PgPresenceTable,
// store/postgres/PgReplayCache), used by any thread one statement at a time. Autocommit: each
// statement stands alone.
class PgSharedConnection
{
public:
    static std::shared_ptr<PgSharedConnection> open(const std::string &url, std::string &error);

    // Runs one statement, reconnecting once when the connection broke (a server restart, a
    // failover) and the statement failed for it.
    PgResult run(const std::string &sql, const PgParams &params = {});

private:
    explicit PgSharedConnection(std::unique_ptr<PgConnection> connection)
        : m_connection(std::move(connection))
    { }

    std::mutex m_mutex;
    std::unique_ptr<PgConnection> m_connection;
};

} // namespace buzz::relay::store
