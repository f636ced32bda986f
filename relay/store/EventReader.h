#pragma once

#include "net/nostr/Event.h"
#include "relay/model/Channel.h"
#include "relay/model/ChannelMember.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;
class Statement;

// Point lookups shared by ingest (inside the write transaction) and query (on a leased connection).
class EventReader
{
public:
    // The column list every event SELECT uses, in the order rowToStoredEvent() reads it.
    static constexpr const char *kEventColumns = "e.community, e.channel, e.id, e.pubkey, "
                                                 "e.created_at, e.kind, e.tags, e.content, e.sig";
    static constexpr int kEventColumnCount = 9;
    // The event and its wire JSON, rebuilt from the stored fields exactly as Event::toJson wrote
    // it at ingest (the row keeps no second copy).
    static StoredEvent rowToStoredEvent(const Statement &row, int firstColumn = 0);

    struct Found
    {
        StoredEvent stored;
        std::optional<std::int64_t> deletedAt;
    };
    struct Head
    {
        std::string id;
        std::int64_t createdAt = 0;
    };

    explicit EventReader(SqliteConnection &connection)
        : m_connection(connection)
    { }

    std::optional<Found> findById(const std::string &community, const std::string &id);
    // Exact (id, created_at) pair, live or deleted: the lookup of channel-create replay detection.
    std::optional<Found> findByExactPair(const std::string &community, const std::string &id,
                                         std::int64_t createdAt);
    // Newest non-deleted canvas revision: created_at DESC, id ASC.
    std::optional<Head> canvasHead(const std::string &community, const std::string &channel);
    // Live replaceable row for (kind, pubkey) (global kinds) or addressable (kind, pubkey, d).
    std::optional<Head> liveReplaceable(const std::string &community, int kind,
                                        const std::string &pubkey,
                                        const std::optional<std::string> &dTag);

    std::optional<model::Channel> channel(const std::string &community, const std::string &uuid);
    std::optional<model::ChannelMember>
    member(const std::string &community, const std::string &channel, const std::string &pubkey);
    std::vector<model::ChannelMember> activeMembers(const std::string &community,
                                                    const std::string &channel);
    // Every channel `pubkey` may read (open ones and those it is an active member of); nullopt
    // when the read failed.
    std::optional<std::vector<std::string>> readableChannels(const std::string &community,
                                                             const std::string &pubkey);
    bool canRead(const std::string &community, const std::string &channel,
                 const std::string &pubkey);

    bool reactionExists(const std::string &community, const std::string &targetId,
                        const std::string &pubkey, const std::string &emoji);
    std::optional<model::ThreadLink> threadLink(const std::string &community,
                                                const std::string &eventId);

private:
    SqliteConnection &m_connection;
};

} // namespace buzz::relay::store
