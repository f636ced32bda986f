#pragma once

#include "relay/model/Channel.h"
#include "relay/model/ChannelMember.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

// The point lookups ingest runs inside its write transaction and readers run on a leased
// connection, whatever the store: store::SqliteEventReader (SQLite) and store::PgEventReader
// (PostgreSQL) answer them alike, byte for byte the same events.
class EventLookup
{
public:
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

    virtual ~EventLookup() = default;

    virtual std::optional<Found> findById(const std::string &community, const std::string &id) = 0;
    // Exact (id, created_at) pair, live or deleted: the lookup of channel-create replay detection.
    virtual std::optional<Found> findByExactPair(const std::string &community,
                                                 const std::string &id, std::int64_t createdAt) = 0;
    // Newest non-deleted canvas revision: created_at DESC, id ASC.
    virtual std::optional<Head> canvasHead(const std::string &community,
                                           const std::string &channel) = 0;
    // Live replaceable row for (kind, pubkey) (global kinds) or addressable (kind, pubkey, d).
    virtual std::optional<Head> liveReplaceable(const std::string &community, int kind,
                                                const std::string &pubkey,
                                                const std::optional<std::string> &dTag) = 0;

    virtual std::optional<model::Channel> channel(const std::string &community,
                                                  const std::string &uuid) = 0;
    // Whether `uuid` names a deleted channel (kind 9008): its id is never used again.
    virtual bool isRetiredChannel(const std::string &community, const std::string &uuid) = 0;
    virtual std::optional<model::ChannelMember>
    member(const std::string &community, const std::string &channel, const std::string &pubkey) = 0;
    virtual std::vector<model::ChannelMember> activeMembers(const std::string &community,
                                                            const std::string &channel) = 0;
    // Every channel `pubkey` may read (open ones and those it is an active member of); nullopt
    // when the read failed.
    virtual std::optional<std::vector<std::string>> readableChannels(const std::string &community,
                                                                     const std::string &pubkey) = 0;
    virtual bool canRead(const std::string &community, const std::string &channel,
                         const std::string &pubkey) = 0;

    virtual bool reactionExists(const std::string &community, const std::string &targetId,
                                const std::string &pubkey, const std::string &emoji) = 0;
    virtual std::optional<model::ThreadLink> threadLink(const std::string &community,
                                                        const std::string &eventId) = 0;
};

} // namespace buzz::relay::store
