#pragma once

#include "relay/model/PresenceTable.h"
#include "relay/store/postgres/PgSharedConnection.h"

#include <atomic>
#include <memory>
#include <string>

namespace buzz::relay::store {

// The presence table of every relay process on one PostgreSQL database (table `presence`,
// UNLOGGED: statuses live 90 s and a crash may forget them). The same rules as
// MemoryPresenceTable, decided by the database: a late, older status changes nothing, "offline"
// removes the row, reads skip rows older than kTtlSeconds, and every kSweepEvery updates the
// expired rows are deleted. A statement that fails is logged and changes or answers nothing.
class PgPresenceTable : public PresenceTable
{
public:
    // `fanoutChannel` and `origin`: PgStore::fanoutChannel and fanoutOrigin (empty: no fan-out).
    PgPresenceTable(std::shared_ptr<PgSharedConnection> connection, std::string fanoutChannel = {},
                    std::string origin = {})
        : m_connection(std::move(connection))
        , m_fanoutChannel(std::move(fanoutChannel))
        , m_origin(std::move(origin))
    { }

    void update(const std::string &community, const std::string &pubkey, const std::string &status,
                std::int64_t createdAt, std::int64_t now) override;
    // Into fanout_log, as a group commit does (PgStore::kLogFanoutSql), in one statement of its
    // own.
    void fanOut(const StoredEvent &event) override;
    std::vector<Entry> lookup(const std::string &community, const std::vector<std::string> &pubkeys,
                              std::int64_t now) override;

private:
    static constexpr std::uint64_t kSweepEvery = 256;
    std::shared_ptr<PgSharedConnection> m_connection;
    std::string m_fanoutChannel;
    std::string m_origin;
    std::atomic<std::uint64_t> m_updates {0};
};

} // namespace buzz::relay::store
