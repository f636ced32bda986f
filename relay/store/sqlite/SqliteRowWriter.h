#pragma once

#include "net/nostr/Event.h"
#include "relay/model/Channel.h"
#include "relay/model/ChannelMember.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"
#include "relay/store/EventRows.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::store {

class ChangeRecord;
class SqliteConnection;

// Every row mutation of the SQLite store, in one place. The writer records each operation into
// the transaction's change (the commit-log record); a replica replays the same operations through
// the same code with recording off, so writer and replica rows can never drift apart.
class SqliteRowWriter final : public EventRows
{
public:
    // `change` (nullable) receives one JSON op per mutation.
    SqliteRowWriter(SqliteConnection &connection, ChangeRecord *change)
        : m_connection(connection)
        , m_change(change)
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

    // Applies one recorded change (a commit-log record) — the replica side of the same contract.
    static bool applyChange(SqliteConnection &connection, const nlohmann::json &change);

    // Tags as compact JSON exactly as on the wire.
    static std::string tagsJson(const nostr::Tags &tags);

private:
    void record(const nlohmann::json &op);

    SqliteConnection &m_connection;
    ChangeRecord *m_change;
};

} // namespace buzz::relay::store
