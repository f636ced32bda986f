#pragma once

#include "relay/store/EventLookup.h"

namespace buzz::relay::store {

class PgConnection;
class PgResult;

// EventLookup on PostgreSQL: the same answers as SqliteEventReader (SQLite), on a writer or standby
// connection. An id alone probes every month's partition (events_by_id); an exact (id,
// created_at) pair reads one month only.
class PgEventReader final : public EventLookup
{
public:
    // The column list every event SELECT uses, in the order rowToStoredEvent() reads it.
    static constexpr const char *kEventColumns = "e.community, e.channel, e.id, e.pubkey, "
                                                 "e.created_at, e.kind, e.tags, e.content, e.sig";
    static constexpr int kEventColumnCount = 9;
    // The event and its wire JSON, rebuilt from the stored fields exactly as Event::toJson wrote
    // it at ingest (tags re-serialised from the JSONB array in canonical form).
    static StoredEvent rowToStoredEvent(const PgResult &result, int row, int firstColumn = 0);

    explicit PgEventReader(PgConnection &connection)
        : m_connection(connection)
    { }

    std::optional<Found> findById(const std::string &community, const std::string &id) override;
    std::optional<Found> findByExactPair(const std::string &community, const std::string &id,
                                         std::int64_t createdAt) override;
    std::optional<Head> canvasHead(const std::string &community,
                                   const std::string &channel) override;
    std::optional<Head> liveReplaceable(const std::string &community, int kind,
                                        const std::string &pubkey,
                                        const std::optional<std::string> &dTag) override;
    std::optional<model::Channel> channel(const std::string &community,
                                          const std::string &uuid) override;
    bool isRetiredChannel(const std::string &community, const std::string &uuid) override;
    std::optional<model::ChannelMember> member(const std::string &community,
                                               const std::string &channel,
                                               const std::string &pubkey) override;
    std::vector<model::ChannelMember> activeMembers(const std::string &community,
                                                    const std::string &channel) override;
    std::optional<std::vector<std::string>> readableChannels(const std::string &community,
                                                             const std::string &pubkey) override;
    bool canRead(const std::string &community, const std::string &channel,
                 const std::string &pubkey) override;
    bool reactionExists(const std::string &community, const std::string &targetId,
                        const std::string &pubkey, const std::string &emoji) override;
    std::optional<model::ThreadLink> threadLink(const std::string &community,
                                                const std::string &eventId) override;

private:
    PgConnection &m_connection;
};

} // namespace buzz::relay::store
