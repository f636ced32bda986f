#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "relay/model/Channel.h"
#include "relay/model/StoredEvent.h"
#include "relay/store/WriteTransaction.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::ingest {

// Writes the relay-signed side-effect events (39000/39001/39002 discovery, 40099 system messages)
// into the caller's write transaction, so they commit — or vanish — with the change that caused
// them.
class RelayEmitter
{
public:
    // A muted emitter stores nothing and reports success: an import (RelayEngine::restoreAsync)
    // replays the relay-signed events of the export instead, so they keep their ids.
    explicit RelayEmitter(nostr::SecretKey key, bool muted = false)
        : m_key(std::move(key))
        , m_muted(muted)
    { }

    const std::string &publicKeyHex() const { return m_key.publicKeyHex(); }

    // Each returns false on a storage failure; successfully stored events are appended to
    // `emitted`.
    bool emitMetadata(store::WriteTransaction &tx, const model::Channel &channel, std::int64_t now,
                      std::vector<StoredEvent> &emitted);
    bool emitAdmins(store::WriteTransaction &tx, const model::Channel &channel, std::int64_t now,
                    std::vector<StoredEvent> &emitted);
    bool emitMembers(store::WriteTransaction &tx, const model::Channel &channel, std::int64_t now,
                     std::vector<StoredEvent> &emitted);
    bool emitAllDiscovery(store::WriteTransaction &tx, const model::Channel &channel,
                          std::int64_t now, std::vector<StoredEvent> &emitted);
    bool emitSystemMessage(store::WriteTransaction &tx, const model::Channel &channel,
                           const nlohmann::json &content, std::int64_t now,
                           std::vector<StoredEvent> &emitted);

    // 44100 member_added / 44101 member_removed: global, readable only with #p = the target.
    bool emitMembershipNotification(store::WriteTransaction &tx, const model::Channel &channel,
                                    const std::string &target, const std::string &actor, bool added,
                                    std::int64_t now, std::vector<StoredEvent> &emitted);

    nostr::Event sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                      std::string content) const;

private:
    // Stores one relay-signed, non-addressable event (40099, 44100/44101).
    bool storeRegular(store::WriteTransaction &tx, nostr::Event event, const std::string &community,
                      const std::optional<std::string> &channel, std::int64_t now,
                      std::vector<StoredEvent> &emitted);
    // Parameterised-replaceable store: created_at = max(now, previous + 1), previous soft-deleted.
    bool storeAddressable(store::WriteTransaction &tx, const model::Channel &channel, int kind,
                          nostr::Tags tags, std::int64_t now, std::vector<StoredEvent> &emitted);

    nostr::SecretKey m_key;
    bool m_muted = false;
};

} // namespace buzz::relay::ingest
