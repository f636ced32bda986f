#pragma once

#include "relay/store/EventRows.h"

namespace buzz::relay::store {

class PgConnection;
class PgEventBatch;

// EventRows on the PostgreSQL writer: the rows SqliteRowWriter writes on SQLite, in the same
// savepoint of the group transaction. No commit-log record: the standby replays the WAL.
class PgRowWriter final : public EventRows
{
public:
    // With `batch`, new events are held back in it as work `member`'s (PgEventBatch).
    explicit PgRowWriter(PgConnection &connection, PgEventBatch *batch = nullptr, int member = 0)
        : m_connection(connection)
        , m_batch(batch)
        , m_member(member)
    { }

    InsertOutcome insertEvent(const StoredEvent &stored, const std::optional<std::string> &dTag,
                              std::int64_t receivedAt,
                              const std::optional<model::ThreadLink> &thread) override;
    bool softDelete(const std::string &community, const std::string &id,
                    std::int64_t deletedAt) override;
    bool upsertChannel(const model::Channel &channel) override;
    bool upsertMember(const model::ChannelMember &member) override;
    bool deleteChannel(const std::string &community, const std::string &uuid,
                       std::int64_t deletedAt) override;
    bool insertReaction(const std::string &community, const std::string &targetId,
                        const std::string &pubkey, const std::string &emoji,
                        const std::string &eventId) override;
    bool removeReactionByEvent(const std::string &community, const std::string &eventId) override;

private:
    PgConnection &m_connection;
    PgEventBatch *m_batch;
    int m_member;
};

} // namespace buzz::relay::store
