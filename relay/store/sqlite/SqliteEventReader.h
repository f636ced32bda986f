#pragma once

#include "net/nostr/Event.h"
#include "relay/model/Channel.h"
#include "relay/model/ChannelMember.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"
#include "relay/store/EventLookup.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;
class Statement;

// Point lookups shared by ingest (inside the write transaction) and query (on a leased connection),
// on SQLite.
class SqliteEventReader final : public EventLookup
{
public:
    // The column list every event SELECT uses, in the order rowToStoredEvent() reads it.
    static constexpr const char *kEventColumns = "e.community, e.channel, e.id, e.pubkey, "
                                                 "e.created_at, e.kind, e.tags, e.content, e.sig";
    static constexpr int kEventColumnCount = 9;
    // The event and its wire JSON, rebuilt from the stored fields exactly as Event::toJson wrote
    // it at ingest (the row keeps no second copy).
    static StoredEvent rowToStoredEvent(const Statement &row, int firstColumn = 0);

    explicit SqliteEventReader(SqliteConnection &connection)
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
    SqliteConnection &m_connection;
};

} // namespace buzz::relay::store
