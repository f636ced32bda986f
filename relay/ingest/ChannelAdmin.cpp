#include "relay/ingest/ChannelAdmin.h"

#include "net/nostr/Kinds.h"
#include "relay/ingest/KindRules.h"
#include "relay/ingest/RoleRules.h"
#include "relay/store/EventLookup.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace buzz::relay::ingest {

namespace {
using Status = IngestResult::Status;

IngestResult invalidBecause(std::string message)
{
    return IngestResult {Status::Rejected, "invalid: " + std::move(message)};
}

bool isBlank(const std::string &text)
{
    return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

bool isValidRole(const std::string &role)
{
    return role == "owner" || role == "admin" || role == "member" || role == "guest"
        || role == "bot";
}

std::optional<std::int64_t> parsePositive(const std::string &text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value <= 0)
        return std::nullopt;
    return value;
}

int activeOwners(store::EventLookup &reader, const model::Channel &channel)
{
    const auto members = reader.activeMembers(channel.community, channel.uuid);
    return static_cast<int>(std::count_if(members.begin(), members.end(),
                                          [](const auto &m) { return m.role == "owner"; }));
}

const std::string *targetPubkey(const nostr::Event &event)
{
    const std::string *target = event.tagValue("p");
    return target && KindRules::isHex64(*target) ? target : nullptr;
}

// The 9002 fields that only owners and admins may change.
constexpr const char *kAdminFields[] = {"name", "about", "archived", "visibility", "ttl"};
constexpr const char *kMemberFields[] = {"topic", "purpose"};
} // namespace

std::optional<IngestResult> ChannelAdmin::validate(store::WriteTransaction &tx,
                                                   const nostr::Event &event,
                                                   const std::string &community,
                                                   const model::Channel *channel,
                                                   const std::string &newChannelId)
{
    store::EventLookup &reader = tx.reader();
    if (event.kind == nostr::kinds::kGroupCreate) {
        const std::string *name = event.tagValue("name");
        if (!name || isBlank(*name))
            return invalidBecause("channel name is required");
        if (const std::string *visibility = event.tagValue("visibility");
            visibility && *visibility != "open" && *visibility != "private")
            return invalidBecause("invalid visibility: " + *visibility);
        if (const std::string *type = event.tagValue("channel_type");
            type && *type != "stream" && *type != "forum")
            return invalidBecause("invalid channel_type: " + *type);
        // A deleted channel's id stays taken: a channel created under it would inherit (and
        // show its members) everything the deleted one held, its canvas head too.
        if (reader.channel(community, newChannelId)
            || reader.isRetiredChannel(community, newChannelId)) {
            // A byte-identical replay of the creation event (exact (id, created_at) pair of the
            // already-signed event, live or deleted, looked up on the writer inside this
            // transaction, so PostgreSQL reads only that event's month) is a success; anything
            // else claiming the UUID is not.
            if (reader.findByExactPair(community, event.id, event.createdAt))
                return IngestResult {Status::Duplicate, "duplicate:"};
            return IngestResult {Status::RejectedDuplicate, "duplicate: channel already exists"};
        }
        return std::nullopt;
    }
    if (event.kind == nostr::kinds::kGroupJoin) {
        if (!event.tagValue("h"))
            return invalidBecause("join request must include an h tag");
        if (!channel)
            return invalidBecause("channel not found");
        if (!channel->isOpen())
            return IngestResult {Status::Rejected, "restricted: channel is private"};
        return std::nullopt;
    }
    if (!channel)
        return invalidBecause("channel not found");
    const auto actor = reader.member(community, channel->uuid, event.pubkey);
    const bool actorActive = actor && actor->active();
    const bool actorAdmin = actor && actor->isAdmin();
    switch (event.kind) {
    case nostr::kinds::kGroupAddMember: {
        const std::string *target = targetPubkey(event);
        if (!target)
            return invalidBecause("member events must include a p tag");
        const std::string *role = event.tagValue("role");
        if (role && !isValidRole(*role))
            return invalidBecause("invalid role: " + *role);
        if (auto refused =
                RoleRules::mayAdd(actor, reader.member(community, channel->uuid, *target),
                                  role ? std::optional<std::string>(*role) : std::nullopt,
                                  activeOwners(reader, *channel)))
            return invalidBecause(*refused);
        return std::nullopt;
    }
    case nostr::kinds::kGroupRemoveMember: {
        const std::string *target = targetPubkey(event);
        if (!target)
            return invalidBecause("member events must include a p tag");
        if (auto refused = RoleRules::mayRemove(event.pubkey, actor, *target,
                                                reader.member(community, channel->uuid, *target),
                                                activeOwners(reader, *channel)))
            return invalidBecause(*refused);
        return std::nullopt;
    }
    case nostr::kinds::kGroupDelete:
        if (!actor || !actor->active() || actor->role != "owner")
            return invalidBecause("only owner can delete group");
        return std::nullopt;
    case nostr::kinds::kGroupEditMetadata: {
        bool any = false;
        for (const char *field : kAdminFields) {
            if (!event.tagValue(field))
                continue;
            any = true;
            if (!actorAdmin)
                return invalidBecause("actor not authorized");
        }
        for (const char *field : kMemberFields) {
            if (!event.tagValue(field))
                continue;
            any = true;
            if (!actorActive)
                return invalidBecause("actor not authorized");
        }
        if (!any)
            return invalidBecause("metadata edit must change at least one field");
        if (const std::string *name = event.tagValue("name"); name && isBlank(*name))
            return invalidBecause("channel name is required");
        if (const std::string *archived = event.tagValue("archived");
            archived && *archived != "true" && *archived != "false")
            return invalidBecause("archived must be true or false");
        if (const std::string *visibility = event.tagValue("visibility");
            visibility && *visibility != "open" && *visibility != "private")
            return invalidBecause("invalid visibility: " + *visibility);
        if (const std::string *ttl = event.tagValue("ttl");
            ttl && !ttl->empty() && !parsePositive(*ttl))
            return invalidBecause("ttl must be a positive number of seconds");
        return std::nullopt;
    }
    case nostr::kinds::kGroupLeave:
        if (actorActive && actor->role == "owner" && activeOwners(reader, *channel) <= 1)
            return invalidBecause("cannot remove the last owner");
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

bool ChannelAdmin::apply(store::WriteTransaction &tx, const nostr::Event &event,
                         const std::string &community, const model::Channel *channel,
                         const std::string &newChannelId, std::int64_t now,
                         std::vector<StoredEvent> &emitted)
{
    if (event.kind == nostr::kinds::kGroupCreate)
        return applyCreate(tx, event, community, newChannelId, now, emitted);
    if (!channel)
        return false;
    if (event.kind == nostr::kinds::kGroupEditMetadata)
        return applyMetadata(tx, event, *channel, now, emitted);
    if (event.kind == nostr::kinds::kGroupDelete)
        return applyDelete(tx, event, *channel, now, emitted);
    return applyMembership(tx, event, *channel, now, emitted);
}

bool ChannelAdmin::applyDelete(store::WriteTransaction &tx, const nostr::Event &event,
                               const model::Channel &channel, std::int64_t now,
                               std::vector<StoredEvent> &emitted)
{
    // The system message first, while the channel still exists for it; then nobody is a member
    // and the channel is gone: reads and writes find no channel.
    if (!m_emitter.emitSystemMessage(
            tx, channel, {{"type", "channel_deleted"}, {"actor", event.pubkey}}, now, emitted))
        return false;
    store::EventLookup &reader = tx.reader();
    for (auto member : reader.activeMembers(channel.community, channel.uuid)) {
        member.removedAt = now;
        member.removedBy = event.pubkey;
        if (!tx.rows().upsertMember(member))
            return false;
    }
    return tx.rows().deleteChannel(channel.community, channel.uuid, now);
}

bool ChannelAdmin::applyCreate(store::WriteTransaction &tx, const nostr::Event &event,
                               const std::string &community, const std::string &uuid,
                               std::int64_t now, std::vector<StoredEvent> &emitted)
{
    model::Channel channel;
    channel.community = community;
    channel.uuid = uuid;
    channel.name = *event.tagValue("name");
    if (const std::string *visibility = event.tagValue("visibility"))
        channel.visibility = *visibility;
    if (const std::string *type = event.tagValue("channel_type"))
        channel.channelType = *type;
    if (const std::string *about = event.tagValue("about"))
        channel.about = *about;
    if (const std::string *ttl = event.tagValue("ttl"))
        channel.ttl = parsePositive(*ttl);
    channel.createdBy = event.pubkey;
    channel.createdAt = event.createdAt;
    channel.createEventId = event.id;
    model::ChannelMember owner {community, uuid, event.pubkey, "owner", now, std::nullopt};
    return tx.rows().upsertChannel(channel) && tx.rows().upsertMember(owner)
        && m_emitter.emitSystemMessage(
            tx, channel, {{"type", "channel_created"}, {"actor", event.pubkey}}, now, emitted)
        && m_emitter.emitAllDiscovery(tx, channel, now, emitted)
        && m_emitter.emitMembershipNotification(tx, channel, event.pubkey, event.pubkey, true, now,
                                                emitted);
}

bool ChannelAdmin::applyMembership(store::WriteTransaction &tx, const nostr::Event &event,
                                   const model::Channel &channel, std::int64_t now,
                                   std::vector<StoredEvent> &emitted)
{
    store::EventLookup &reader = tx.reader();
    const bool adding =
        event.kind == nostr::kinds::kGroupAddMember || event.kind == nostr::kinds::kGroupJoin;
    const std::string target = (event.kind == nostr::kinds::kGroupAddMember
                                || event.kind == nostr::kinds::kGroupRemoveMember)
        ? *targetPubkey(event)
        : event.pubkey;
    auto existing = reader.member(channel.community, channel.uuid, target);
    const bool wasAdmin = existing && existing->isAdmin();
    model::ChannelMember member =
        existing.value_or(model::ChannelMember {channel.community, channel.uuid, target});
    if (adding) {
        const std::string *role =
            event.kind == nostr::kinds::kGroupAddMember ? event.tagValue("role") : nullptr;
        if (role)
            member.role = *role;
        else if (!member.active())
            member.role = "member";
        if (!member.active() || !existing)
            member.joinedAt = now;
        member.removedAt.reset();
        member.removedBy.reset();
    } else {
        if (!existing || !existing->active())
            return true; // nothing to remove; the event itself is still stored
        member.removedAt = now;
        member.removedBy = event.pubkey; // the member themselves when they leave
    }
    if (!tx.rows().upsertMember(member))
        return false;
    static const char *const kTypes[] = {"member_added", "member_removed", "member_joined",
                                         "member_left"};
    const char *type = event.kind == nostr::kinds::kGroupAddMember ? kTypes[0]
        : event.kind == nostr::kinds::kGroupRemoveMember           ? kTypes[1]
        : event.kind == nostr::kinds::kGroupJoin                   ? kTypes[2]
                                                                   : kTypes[3];
    nlohmann::json content = {{"type", type}, {"actor", event.pubkey}};
    if (event.kind == nostr::kinds::kGroupAddMember
        || event.kind == nostr::kinds::kGroupRemoveMember)
        content["target"] = target;
    if (!m_emitter.emitSystemMessage(tx, channel, content, now, emitted))
        return false;
    if ((wasAdmin || member.isAdmin()) && !m_emitter.emitAdmins(tx, channel, now, emitted))
        return false;
    if (!m_emitter.emitMembers(tx, channel, now, emitted))
        return false;
    if (event.kind == nostr::kinds::kGroupAddMember
        || event.kind == nostr::kinds::kGroupRemoveMember)
        return m_emitter.emitMembershipNotification(tx, channel, target, event.pubkey,
                                                    event.kind == nostr::kinds::kGroupAddMember,
                                                    now, emitted);
    return true;
}

bool ChannelAdmin::applyMetadata(store::WriteTransaction &tx, const nostr::Event &event,
                                 const model::Channel &channel, std::int64_t now,
                                 std::vector<StoredEvent> &emitted)
{
    model::Channel updated = channel;
    std::vector<nlohmann::json> messages;
    if (const std::string *name = event.tagValue("name"))
        updated.name = *name;
    if (const std::string *about = event.tagValue("about"))
        updated.about = *about;
    if (const std::string *visibility = event.tagValue("visibility");
        visibility && *visibility != channel.visibility) {
        updated.visibility = *visibility;
        messages.push_back(
            {{"type", "visibility_changed"}, {"actor", event.pubkey}, {"visibility", *visibility}});
    }
    if (const std::string *topic = event.tagValue("topic")) {
        updated.topic = *topic;
        messages.push_back({{"type", "topic_changed"}, {"actor", event.pubkey}, {"topic", *topic}});
    }
    if (const std::string *purpose = event.tagValue("purpose")) {
        updated.purpose = *purpose;
        messages.push_back(
            {{"type", "purpose_changed"}, {"actor", event.pubkey}, {"purpose", *purpose}});
    }
    if (const std::string *ttl = event.tagValue("ttl")) {
        updated.ttl = ttl->empty() ? std::nullopt : parsePositive(*ttl);
        messages.push_back({{"type", "ttl_changed"}, {"actor", event.pubkey}});
    }
    if (const std::string *archived = event.tagValue("archived")) {
        updated.archived = *archived == "true";
        if (updated.archived != channel.archived)
            messages.push_back(
                {{"type", updated.archived ? "channel_archived" : "channel_unarchived"},
                 {"actor", event.pubkey}});
    }
    if (!tx.rows().upsertChannel(updated))
        return false;
    for (const auto &message : messages) {
        if (!m_emitter.emitSystemMessage(tx, updated, message, now, emitted))
            return false;
    }
    return m_emitter.emitMetadata(tx, updated, now, emitted);
}

} // namespace buzz::relay::ingest
