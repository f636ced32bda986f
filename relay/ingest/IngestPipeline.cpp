#include "relay/ingest/IngestPipeline.h"

#include "net/nostr/EventOrder.h"
#include "net/nostr/Kinds.h"
#include "relay/ingest/CanvasCas.h"
#include "relay/ingest/EventPrechecks.h"
#include "relay/ingest/KindRuleTable.h"
#include "relay/ingest/KindRules.h"
#include "relay/ingest/ThreadResolver.h"
#include "relay/model/CommitFloor.h"
#include "relay/store/EventLookup.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcIngest, "buzz.relay.ingest")

namespace buzz::relay::ingest {

namespace {
using Status = IngestResult::Status;
using Outcome = IngestPipeline::Outcome;

Outcome reject(std::string message, Status status = Status::Rejected)
{
    return Outcome {IngestResult {status, std::move(message)}, {}};
}

Outcome internalError()
{
    return reject("error: internal server error", Status::Internal);
}

std::optional<std::string> addressTag(const nostr::Event &event)
{
    if (!nostr::isParameterizedReplaceableKind(event.kind))
        return std::nullopt;
    const std::string *d = event.tagValue("d");
    return d ? *d : std::string();
}
} // namespace

Outcome IngestPipeline::ingest(const nostr::Event &event, const RequestContext &context,
                               std::int64_t now, std::int64_t nowMs)
{
    if (auto rejected = EventPrechecks::run(event, context, now))
        return Outcome {*rejected, {}};
    if (auto kept = presence(event, context, now))
        return std::move(*kept);
    // Group commit: this event runs under its own savepoint in whichever writer transaction is
    // next, and we return only after that transaction committed (OK true means durable).
    Outcome outcome = internalError();
    const std::string json = event.toJson(); // here, not on the writer
    const auto group =
        m_database.writeInGroup(context.community, nowMs, [&](store::WriteTransaction &tx) {
            writeEvent(tx, event, json, context, now, nowMs, outcome);
        });
    if (group == store::Store::GroupOutcome::Failed) {
        qCWarning(lcIngest) << "commit failed for kind" << event.kind;
        return internalError();
    }
    return outcome;
}

void IngestPipeline::ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                                 std::int64_t now, std::int64_t nowMs, Done done)
{
    if (auto rejected = EventPrechecks::run(*event, context, now)) {
        done(Outcome {*rejected, {}});
        return;
    }
    if (auto kept = presence(*event, context, now)) {
        done(std::move(*kept));
        return;
    }
    auto outcome = std::make_shared<Outcome>(internalError());
    const std::string community = context.community;
    auto json = std::make_shared<const std::string>(event->toJson()); // here, not on the writer
    m_database.writeInGroupAsync(
        community, nowMs,
        [this, event, json, context = std::move(context), now, nowMs,
         outcome](store::WriteTransaction &tx) {
            writeEvent(tx, *event, *json, context, now, nowMs, *outcome);
        },
        [event, outcome, done = std::move(done)](store::Store::GroupOutcome group) {
            if (group == store::Store::GroupOutcome::Failed) {
                qCWarning(lcIngest) << "commit failed for kind" << event->kind;
                done(internalError());
                return;
            }
            done(std::move(*outcome));
        });
}

bool IngestPipeline::isRelayWritten(int kind)
{
    return kind == nostr::kinds::kGroupMetadata || kind == nostr::kinds::kGroupAdmins
        || kind == nostr::kinds::kGroupMembers || kind == nostr::kinds::kSystemMessage
        || kind == nostr::kinds::kMemberAddedNotice || kind == nostr::kinds::kMemberRemovedNotice;
}

void IngestPipeline::restoreAsync(std::shared_ptr<const nostr::Event> event, std::string community,
                                  std::int64_t nowMs, Done done)
{
    const bool relayWritten = isRelayWritten(event->kind);
    if (nostr::isEphemeralKind(event->kind)) {
        done(reject("invalid: ephemeral events are not stored"));
        return;
    }
    if (!relayWritten && !KindRules::isAllowedFromClient(event->kind)) {
        done(reject("restricted: unknown event kind"));
        return;
    }
    if (event->content.size() > EventPrechecks::kMaxContentBytes) {
        done(reject("invalid: content exceeds maximum size of 262144 bytes"));
        return;
    }
    auto outcome = std::make_shared<Outcome>(internalError());
    auto json = std::make_shared<const std::string>(event->toJson());
    const std::string groupCommunity = community;
    m_database.writeInGroupAsync(
        groupCommunity, nowMs,
        [this, event, json, community = std::move(community), nowMs, relayWritten,
         outcome](store::WriteTransaction &tx) {
            if (relayWritten) {
                *outcome = restoreRelayWritten(tx, *event, *json, community);
            } else {
                // The rules run on the event's own clock: the decisions (CAS, membership, roles)
                // are those the relay made when the event arrived, whenever the import runs.
                const RequestContext context {community, event->pubkey, Transport::WebSocket};
                *outcome = ingestLocked(tx, *event, *json, context, event->createdAt);
            }
            // Refused but already there (an import run again): the rules judged it against the
            // later state (a canvas revision against a newer head); it is in fact stored. Asked
            // only after a refusal, so a fresh import pays no extra lookup.
            const Status status = outcome->result.status;
            if (status != Status::Stored && status != Status::Duplicate
                && status != Status::Internal && tx.reader().findById(community, event->id)) {
                *outcome = reject("duplicate:", Status::Duplicate);
                return;
            }
            if (status == Status::Stored && !tx.commit(nowMs))
                *outcome = internalError();
        },
        [outcome, done = std::move(done)](store::Store::GroupOutcome group) {
            if (group == store::Store::GroupOutcome::Failed) {
                done(internalError());
                return;
            }
            done(std::move(*outcome));
        });
}

Outcome IngestPipeline::restoreRelayWritten(store::WriteTransaction &tx, const nostr::Event &event,
                                            const std::string &json, const std::string &community)
{
    // Where RelayEmitter files them: discovery under its d tag, system messages under h,
    // membership notices global (the p gate decides who reads them).
    std::optional<std::string> channel;
    if (nostr::isParameterizedReplaceableKind(event.kind))
        channel = addressTag(event);
    else if (event.kind == nostr::kinds::kSystemMessage)
        channel = KindRules::channelFromTags(event);
    std::optional<std::string> replacedId;
    if (nostr::isParameterizedReplaceableKind(event.kind)) {
        if (const auto live = tx.reader().liveReplaceable(community, event.kind, event.pubkey,
                                                          addressTag(event))) {
            if (!nostr::isNewer(event.createdAt, event.id, live->createdAt, live->id))
                return reject("duplicate:", Status::Duplicate);
            replacedId = live->id;
        }
    }
    StoredEvent stored {event, json, community, channel};
    switch (tx.rows().insertEvent(stored, addressTag(event), event.createdAt, std::nullopt)) {
    case store::EventRows::InsertOutcome::Failed:
        return internalError();
    case store::EventRows::InsertOutcome::AlreadyExists:
        return reject("duplicate:", Status::Duplicate);
    case store::EventRows::InsertOutcome::Inserted:
        break;
    }
    if (replacedId && !tx.rows().softDelete(community, *replacedId, event.createdAt))
        return internalError();
    Outcome outcome {IngestResult {Status::Stored, ""}, {}};
    outcome.committed.push_back(std::move(stored));
    return outcome;
}

std::optional<Outcome> IngestPipeline::presence(const nostr::Event &event,
                                                const RequestContext &context, std::int64_t now)
{
    if (event.kind != nostr::kinds::kPresence)
        return std::nullopt;
    // docs/buzz-protocol.md §Presence and typing: verified (EventPrechecks), the status kept for
    // presence queries, fanned out to global subscriptions, never stored.
    if (event.content.size() > kMaxPresenceBytes)
        return reject("invalid: presence status exceeds " + std::to_string(kMaxPresenceBytes)
                      + " bytes");
    m_presence.update(context.community, event.pubkey, event.content, event.createdAt, now);
    Outcome outcome {IngestResult {Status::Stored, ""}, {}};
    outcome.committed.push_back(StoredEvent {event, event.toJson(), context.community, {}});
    m_presence.fanOut(outcome.committed.back()); // to the other processes' subscriptions
    return outcome;
}

void IngestPipeline::writeEvent(store::WriteTransaction &tx, const nostr::Event &event,
                                const std::string &json, const RequestContext &context,
                                std::int64_t now, std::int64_t nowMs, Outcome &outcome)
{
    outcome = ingestLocked(tx, event, json, context, now);
    if (outcome.result.status != Status::Stored)
        return; // rejections and duplicates write nothing (the savepoint rolls back)
    // Replica fence: a channel row older than commit time - 960 s is refused (CommitFloor).
    for (const auto &stored : outcome.committed) {
        if (stored.channel && CommitFloor::refuses(stored.event.createdAt, nowMs)) {
            outcome = reject(std::string(CommitFloor::kMessage));
            return;
        }
    }
    // The other relay processes on this database fan them out too (relay/README.md "Live
    // fan-out across processes"); a typing event has no row, so it travels whole.
    for (const auto &stored : outcome.committed)
        tx.announce(stored, stored.event.kind != nostr::kinds::kTyping);
    if (!tx.commit(nowMs)) {
        qCWarning(lcIngest) << "savepoint release failed for kind" << event.kind;
        outcome = internalError();
    }
}

Outcome IngestPipeline::ingestLocked(store::WriteTransaction &tx, const nostr::Event &event,
                                     const std::string &json, const RequestContext &context,
                                     std::int64_t now)
{
    // The common steps of docs/buzz-protocol.md §Ingest order, in order; what a kind adds to them
    // is its row of KindRuleTable, called at its step.
    const int kind = event.kind;
    const KindRuleTable::Rule &rule = KindRuleTable::forKind(kind);
    IngestStep step {tx, event, context.community, now, m_admin, m_emitter};
    store::EventLookup &reader = tx.reader();

    if (nostr::isParameterizedReplaceableKind(kind)) {
        const std::string *d = event.tagValue("d");
        if (d && d->size() > kMaxDTagBytes)
            return reject("invalid: d tag too long (" + std::to_string(d->size()) + " bytes, max "
                          + std::to_string(kMaxDTagBytes) + ")");
    }

    // Step 5: channel resolution, of channel ids and member keys written canonically only.
    if (auto refusal = KindRules::nonCanonicalIdError(event))
        return reject(std::move(*refusal));
    if (rule.resolve) {
        if (auto refused = rule.resolve(step))
            return Outcome {*refused, {}};
    } else if (!KindRules::isGlobal(kind)) {
        step.channelId = KindRules::channelFromTags(event);
    }

    // Step 6.
    if (KindRules::requiresChannel(kind) && !step.channelId)
        return reject("invalid: channel-scoped events must include an h tag");

    // Canvas CAS and channel creation decide on the channel's rows as they are now: no other
    // writer of the database (another relay process on one PostgreSQL) may decide on the same
    // channel until this write's transaction ends (relay/README.md "Several processes on one
    // PostgreSQL"). Taken before any of those rows is read.
    if (step.channelId && rule.locksChannel && !tx.lockChannel(step.community, *step.channelId))
        return internalError();

    if (step.channelId && rule.readsChannel)
        step.channel = reader.channel(step.community, *step.channelId);

    // Step 8: channel access for writes = member or open channel.
    if (step.channelId && rule.checksAccess) {
        if (!step.channel)
            return KindRules::isChannelAdmin(kind) ? reject("invalid: channel not found")
                                                   : reject("restricted: not a channel member");
        if (!step.channel->isOpen()) {
            const auto member = reader.member(step.community, *step.channelId, event.pubkey);
            if (!member || !member->active())
                return reject("restricted: not a channel member");
        }
    }

    // Typing (docs/buzz-protocol.md §Presence and typing): a member's, fanned out to the
    // channel's subscribers once this savepoint is released, never stored.
    if (rule.fanOutOnly) {
        Outcome outcome {IngestResult {Status::Stored, ""}, {}};
        outcome.committed.push_back(StoredEvent {event, json, step.community, step.channelId});
        return outcome;
    }

    // Steps 9-10: NIP-29 admin rules, deletions only by the target's author.
    if (rule.authorise) {
        if (auto refused = rule.authorise(step))
            return Outcome {*refused, {}};
    }

    // Step 11: archived channels are read-only, except the unarchive edit itself.
    if (step.channel && step.channel->archived) {
        const std::string *archived = event.tagValue("archived");
        if (!(kind == nostr::kinds::kGroupEditMetadata && archived && *archived == "false"))
            return reject("invalid: channel is archived");
    }

    // Steps 12-17: deletion targets, edits, the canvas precondition, channel creation and joins.
    if (rule.validate) {
        if (auto refused = rule.validate(step))
            return Outcome {*refused, {}};
    }

    // Step 19: NIP-10 ancestry — never for canvases.
    std::optional<model::ThreadLink> thread;
    if (KindRules::requiresChannel(kind) && kind != nostr::kinds::kCanvas) {
        auto resolved = ThreadResolver::resolve(reader, step.community, step.channelId, event);
        if (resolved.rejection)
            return Outcome {*resolved.rejection, {}};
        thread = resolved.link;
    }

    // Steps 20-20a and the canvas compare-and-swap: the last checks before the row.
    if (rule.prepare) {
        if (auto refused = rule.prepare(step))
            return Outcome {*refused, {}};
    }

    // Store.
    StoredEvent stored {event, json, step.community, step.channelId};
    std::optional<std::string> replacedId;
    if (nostr::isReplaceableKind(kind) || nostr::isParameterizedReplaceableKind(kind)) {
        // Only a newer version replaces (nostr::isNewer); the others are answered "duplicate:".
        // Parameterised kinds are keyed by (kind, pubkey, d).
        if (const auto live =
                reader.liveReplaceable(step.community, kind, event.pubkey, addressTag(event))) {
            if (!nostr::isNewer(event.createdAt, event.id, live->createdAt, live->id))
                return reject("duplicate:", Status::Duplicate);
            replacedId = live->id;
        }
    }
    switch (tx.rows().insertEvent(stored, addressTag(event), now, thread)) {
    case store::EventRows::InsertOutcome::Failed:
        return internalError();
    case store::EventRows::InsertOutcome::AlreadyExists:
        return reject("duplicate:", Status::Duplicate);
    case store::EventRows::InsertOutcome::Inserted:
        break;
    }
    if (replacedId && !tx.rows().softDelete(step.community, *replacedId, now))
        return internalError();

    // Side effects, in the same transaction.
    Outcome outcome {IngestResult {Status::Stored, ""}, {}};
    outcome.committed.push_back(std::move(stored));
    if (rule.apply && !rule.apply(step, outcome.committed))
        return internalError();
    return outcome;
}

} // namespace buzz::relay::ingest
