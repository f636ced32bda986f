#pragma once

#include "relay/model/SharedReplayCache.h"
#include "relay/store/postgres/PgSharedConnection.h"

#include <atomic>
#include <memory>

namespace buzz::relay::store {

// NIP-98 ids remembered for every relay process on one PostgreSQL database (table
// `nip98_replays`, UNLOGGED): an id is new when no row has it, or its row is older than the
// window (the row is then taken over), both decided by one INSERT … ON CONFLICT, so two
// processes that see one token at once cannot both take it. Every kSweepEvery calls the
// expired rows are deleted.
class PgReplayCache : public SharedReplayCache
{
public:
    explicit PgReplayCache(std::shared_ptr<PgSharedConnection> connection)
        : m_connection(std::move(connection))
    { }

    std::optional<bool> remember(const std::string &id, std::int64_t now,
                                 std::int64_t windowSecs) override;

private:
    static constexpr std::uint64_t kSweepEvery = 256;
    std::shared_ptr<PgSharedConnection> m_connection;
    std::atomic<std::uint64_t> m_calls {0};
};

} // namespace buzz::relay::store
