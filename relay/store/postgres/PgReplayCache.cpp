#include "relay/store/postgres/PgReplayCache.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcPgReplay, "buzz.relay.store.replay")

namespace buzz::relay::store {

std::optional<bool> PgReplayCache::remember(const std::string &id, std::int64_t now,
                                            std::int64_t windowSecs)
{
    if (++m_calls % kSweepEvery == 0
        && !m_connection
                ->run("DELETE FROM nip98_replays WHERE seen_at <= $1",
                      PgParams().int64(now - windowSecs))
                .ok())
        qCWarning(lcPgReplay) << "sweeping expired NIP-98 ids failed";
    PgResult result = m_connection->run(
        "INSERT INTO nip98_replays (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE "
        "SET seen_at = excluded.seen_at WHERE nip98_replays.seen_at <= $3",
        PgParams().text(id).int64(now).int64(now - windowSecs));
    if (!result.ok()) {
        qCWarning(lcPgReplay) << "NIP-98 replay check failed:" << result.message().c_str();
        return std::nullopt;
    }
    return result.affected() == 1;
}

} // namespace buzz::relay::store
