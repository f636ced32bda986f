#include "relay/ingest/RelayEmitter.h"

#include "net/nostr/Kinds.h"
#include "relay/store/EventLookup.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace buzz::relay::ingest {

nostr::Event RelayEmitter::sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                                std::string content) const
{
    return m_key.signedEvent(kind, createdAt, std::move(tags), std::move(content));
}

bool RelayEmitter::storeAddressable(store::WriteTransaction &tx, const model::Channel &channel,
                                    int kind, nostr::Tags tags, std::int64_t now,
                                    std::vector<StoredEvent> &emitted)
{
    if (m_muted)
        return true;
    store::EventLookup &reader = tx.reader();
    const auto previous =
        reader.liveReplaceable(channel.community, kind, publicKeyHex(), channel.uuid);
    const std::int64_t createdAt = previous ? std::max(now, previous->createdAt + 1) : now;
    StoredEvent stored;
    stored.event = sign(kind, createdAt, std::move(tags), "");
    stored.json = stored.event.toJson();
    stored.community = channel.community;
    stored.channel = channel.uuid;
    if (tx.rows().insertEvent(stored, channel.uuid, now, std::nullopt)
        != store::EventRows::InsertOutcome::Inserted)
        return false;
    if (previous && !tx.rows().softDelete(channel.community, previous->id, now))
        return false;
    emitted.push_back(std::move(stored));
    return true;
}

bool RelayEmitter::emitMetadata(store::WriteTransaction &tx, const model::Channel &channel,
                                std::int64_t now, std::vector<StoredEvent> &emitted)
{
    nostr::Tags tags {{"d", channel.uuid}, {"name", channel.name}};
    if (!channel.about.empty())
        tags.push_back({"about", channel.about});
    tags.push_back({channel.isOpen() ? "public" : "private"});
    tags.push_back({"closed"});
    tags.push_back({"t", channel.channelType});
    if (channel.topic)
        tags.push_back({"topic", *channel.topic});
    if (channel.purpose)
        tags.push_back({"purpose", *channel.purpose});
    if (channel.archived)
        tags.push_back({"archived", "true"});
    if (channel.ttl)
        tags.push_back({"ttl", std::to_string(*channel.ttl)});
    return storeAddressable(tx, channel, nostr::kinds::kGroupMetadata, std::move(tags), now,
                            emitted);
}

bool RelayEmitter::emitAdmins(store::WriteTransaction &tx, const model::Channel &channel,
                              std::int64_t now, std::vector<StoredEvent> &emitted)
{
    nostr::Tags tags {{"d", channel.uuid}};
    for (const auto &member : tx.reader().activeMembers(channel.community, channel.uuid)) {
        if (member.isAdmin())
            tags.push_back({"p", member.pubkey, member.role});
    }
    return storeAddressable(tx, channel, nostr::kinds::kGroupAdmins, std::move(tags), now, emitted);
}

bool RelayEmitter::emitMembers(store::WriteTransaction &tx, const model::Channel &channel,
                               std::int64_t now, std::vector<StoredEvent> &emitted)
{
    nostr::Tags tags {{"d", channel.uuid}};
    for (const auto &member : tx.reader().activeMembers(channel.community, channel.uuid))
        tags.push_back({"p", member.pubkey, "", member.role});
    return storeAddressable(tx, channel, nostr::kinds::kGroupMembers, std::move(tags), now,
                            emitted);
}

bool RelayEmitter::emitAllDiscovery(store::WriteTransaction &tx, const model::Channel &channel,
                                    std::int64_t now, std::vector<StoredEvent> &emitted)
{
    return emitMetadata(tx, channel, now, emitted) && emitAdmins(tx, channel, now, emitted)
        && emitMembers(tx, channel, now, emitted);
}

bool RelayEmitter::storeRegular(store::WriteTransaction &tx, nostr::Event event,
                                const std::string &community,
                                const std::optional<std::string> &channel, std::int64_t now,
                                std::vector<StoredEvent> &emitted)
{
    if (m_muted)
        return true;
    StoredEvent stored;
    stored.event = std::move(event);
    stored.json = stored.event.toJson();
    stored.community = community;
    stored.channel = channel;
    const auto outcome = tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt);
    if (outcome == store::EventRows::InsertOutcome::Failed)
        return false;
    // An identical event in the same second already exists: nothing new to announce.
    if (outcome == store::EventRows::InsertOutcome::Inserted)
        emitted.push_back(std::move(stored));
    return true;
}

bool RelayEmitter::emitSystemMessage(store::WriteTransaction &tx, const model::Channel &channel,
                                     const nlohmann::json &content, std::int64_t now,
                                     std::vector<StoredEvent> &emitted)
{
    return storeRegular(tx, sign(40099, now, {{"h", channel.uuid}}, content.dump()),
                        channel.community, channel.uuid, now, emitted);
}

bool RelayEmitter::emitMembershipNotification(store::WriteTransaction &tx,
                                              const model::Channel &channel,
                                              const std::string &target, const std::string &actor,
                                              bool added, std::int64_t now,
                                              std::vector<StoredEvent> &emitted)
{
    const nlohmann::json content = {{"type", added ? "member_added" : "member_removed"},
                                    {"channel_id", channel.uuid},
                                    {"actor", actor}};
    // Global (no channel): the p-gate, not channel access, decides who reads it.
    return storeRegular(
        tx,
        sign(added ? nostr::kinds::kMemberAddedNotice : nostr::kinds::kMemberRemovedNotice, now,
             {{"p", target}, {"h", channel.uuid}}, content.dump()),
        channel.community, std::nullopt, now, emitted);
}

} // namespace buzz::relay::ingest
