#pragma once

#include "relay/model/Channel.h"
#include "relay/model/ChannelMember.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::store {

// Every row mutation ingest makes, whatever the store: store::SqliteRowWriter (SQLite, recording
// each one into the commit log its replicas replay) and store::PgRowWriter (PostgreSQL, whose
// standby replays the WAL) write the same rows.
class EventRows
{
public:
    enum class InsertOutcome { Inserted, AlreadyExists, Failed };

    // Tag values longer than this are not indexed (they are still post-matched from the event
    // JSON).
    static constexpr std::size_t kMaxIndexedTagValue = 512;

    virtual ~EventRows() = default;

    virtual InsertOutcome insertEvent(const StoredEvent &stored,
                                      const std::optional<std::string> &dTag,
                                      std::int64_t receivedAt,
                                      const std::optional<model::ThreadLink> &thread) = 0;
    virtual bool softDelete(const std::string &community, const std::string &id,
                            std::int64_t deletedAt) = 0;
    virtual bool upsertChannel(const model::Channel &channel) = 0;
    virtual bool upsertMember(const model::ChannelMember &member) = 0;
    // Kind 9008: the channel row goes (its events and member rows stay, members already removed
    // by the caller), so the channel is "not found" from here on, and its id is retired
    // (EventLookup::isRetiredChannel).
    virtual bool deleteChannel(const std::string &community, const std::string &uuid,
                               std::int64_t deletedAt) = 0;
    virtual bool insertReaction(const std::string &community, const std::string &targetId,
                                const std::string &pubkey, const std::string &emoji,
                                const std::string &eventId) = 0;
    virtual bool removeReactionByEvent(const std::string &community,
                                       const std::string &eventId) = 0;
};

} // namespace buzz::relay::store
