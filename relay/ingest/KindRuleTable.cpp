#include "relay/ingest/KindRuleTable.h"

#include "net/nostr/Kinds.h"
#include "relay/ingest/ChannelAdmin.h"
#include "relay/ingest/KindRules.h"
#include "relay/ingest/RelayEmitter.h"

#include <QUuid>

#include <nlohmann/json.hpp>

namespace buzz::relay::ingest {

namespace {
namespace kinds = nostr::kinds;
using Status = IngestResult::Status;
using Rule = KindRuleTable::Rule;

IngestResult refuse(std::string message, Status status = Status::Rejected)
{
    return IngestResult {status, std::move(message)};
}

// Reactions: the last well-formed `e` tag names the target.
const std::string *reactionTarget(const nostr::Event &event)
{
    const std::string *target = nullptr;
    for (const auto &tag : event.tags) {
        if (tag.size() >= 2 && tag[0] == "e" && KindRules::isHex64(tag[1]))
            target = &tag[1];
    }
    return target;
}

// Step 5 per kind.
Refusal reactionChannel(IngestStep &step)
{
    const std::string *targetId = reactionTarget(step.event);
    if (!targetId)
        return refuse("invalid: reaction must reference a target event via e tag");
    step.target = step.reader().findById(step.community, *targetId);
    if (!step.target || step.target->deletedAt)
        return refuse("invalid: reaction target event not found");
    step.channelId = step.target->stored.channel;
    return std::nullopt;
}

Refusal deletionChannel(IngestStep &step)
{
    if (const std::string *targetId = step.event.tagValue("e")) {
        step.target = step.reader().findById(step.community, *targetId);
        if (step.target)
            step.channelId = step.target->stored.channel;
    }
    return std::nullopt;
}

Refusal newChannel(IngestStep &step)
{
    step.channelId = KindRules::channelFromTags(step.event);
    if (!step.channelId)
        step.channelId = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    step.newChannelId = *step.channelId;
    return std::nullopt;
}

// Steps 9 and 16/17: the NIP-29 admin rules (ChannelAdmin).
Refusal adminRules(IngestStep &step)
{
    return step.admin.validate(step.tx, step.event, step.community, step.channelRow(),
                               step.newChannelId);
}

// Step 10: NIP-09 deletions only by the target's author.
Refusal deletionAuthor(IngestStep &step)
{
    for (const auto &targetId : step.event.tagValues("e")) {
        const auto found = step.reader().findById(step.community, targetId);
        if (!found)
            return refuse("invalid: target event not found");
        if (found->stored.event.pubkey != step.event.pubkey)
            return refuse("invalid: must be event author");
    }
    return std::nullopt;
}

// Step 12: exactly one deletion target.
Refusal oneDeletionTarget(IngestStep &step)
{
    const int eCount = step.event.tagCount("e");
    const int aCount = step.event.tagCount("a");
    if (eCount + aCount != 1)
        return refuse(
            "invalid: deletion events must reference exactly one target via e or a tag (got e="
            + std::to_string(eCount) + ", a=" + std::to_string(aCount) + ")");
    if (eCount == 0)
        return refuse("invalid: target event not found"); // no addressable kinds are
                                                          // client-writable here
    return std::nullopt;
}

Refusal groupDeleteTarget(IngestStep &step)
{
    if (auto refused = oneDeletionTarget(step))
        return refused;
    step.target = step.reader().findById(step.community, *step.event.tagValue("e"));
    if (!step.target || step.target->stored.channel != step.channelId)
        return refuse("invalid: target event not found");
    if (step.target->stored.event.pubkey != step.event.pubkey) {
        const auto actor = step.reader().member(step.community, *step.channelId, step.event.pubkey);
        if (!actor || !actor->isAdmin())
            return refuse("invalid: actor not authorized");
    }
    return std::nullopt;
}

// Step 13: edits.
Refusal editTarget(IngestStep &step)
{
    const std::string *targetId = step.event.tagValue("e");
    const auto edited = targetId ? step.reader().findById(step.community, *targetId) : std::nullopt;
    if (!edited || edited->deletedAt)
        return refuse("invalid: edit target event not found");
    if (edited->stored.event.pubkey != step.event.pubkey)
        return refuse("invalid: must be event author to edit");
    if (edited->stored.channel != step.channelId)
        return refuse("invalid: target event belongs to a different channel");
    return std::nullopt;
}

// Canvas precondition shape and the 300 s future bound; the compare-and-swap itself is decided
// last, just before the insert (canvasSwap).
Refusal canvasShape(IngestStep &step)
{
    return CanvasCas::validate(step.event, step.now, step.expectation);
}

Refusal canvasSwap(IngestStep &step)
{
    const auto decision = CanvasCas::decide(step.reader(), step.community, *step.channelId,
                                            step.event, step.expectation);
    if (decision.rejection)
        return decision.rejection;
    if (decision.decision == CanvasCas::Decision::DuplicateHead)
        return refuse("duplicate:", Status::Duplicate);
    return std::nullopt;
}

// Step 20: kind 0 content.
Refusal profileContent(IngestStep &step)
{
    if (!nlohmann::json::accept(step.event.content))
        return refuse("invalid: kind:0 content must be valid JSON");
    return std::nullopt;
}

// Step 20a: one reaction per (target, actor, emoji).
Refusal oneReaction(IngestStep &step)
{
    step.emoji = step.event.content.empty() ? "+" : step.event.content;
    if (step.reader().reactionExists(step.community, step.target->stored.event.id,
                                     step.event.pubkey, step.emoji))
        return refuse("duplicate: reaction already exists", Status::RejectedDuplicate);
    return std::nullopt;
}

// Side effects.
bool adminEffects(IngestStep &step, std::vector<StoredEvent> &committed)
{
    return step.admin.apply(step.tx, step.event, step.community, step.channelRow(),
                            step.newChannelId, step.now, committed);
}

// The target row goes (soft delete), and with a reaction its reaction row.
bool deleteTarget(IngestStep &step)
{
    const std::string &targetId = step.target->stored.event.id;
    return step.tx.rows().softDelete(step.community, targetId, step.now)
        && (step.target->stored.event.kind != kinds::kReaction
            || step.tx.rows().removeReactionByEvent(step.community, targetId));
}

bool deletionEffects(IngestStep &step, std::vector<StoredEvent> &)
{
    return deleteTarget(step);
}

bool groupDeleteEffects(IngestStep &step, std::vector<StoredEvent> &committed)
{
    return deleteTarget(step)
        && step.emitter.emitSystemMessage(step.tx, *step.channel,
                                          {{"type", "message_deleted"},
                                           {"actor", step.event.pubkey},
                                           {"target_event_id", step.target->stored.event.id}},
                                          step.now, committed);
}

bool reactionEffects(IngestStep &step, std::vector<StoredEvent> &)
{
    return step.tx.rows().insertReaction(step.community, step.target->stored.event.id,
                                         step.event.pubkey, step.emoji, step.event.id);
}

// The table.
constexpr Rule kDefault {};
constexpr Rule kReactionRule {
    .resolve = reactionChannel, .prepare = oneReaction, .apply = reactionEffects};
constexpr Rule kDeletionRule {.resolve = deletionChannel,
                              .authorise = deletionAuthor,
                              .validate = oneDeletionTarget,
                              .apply = deletionEffects};
constexpr Rule kProfileRule {.prepare = profileContent};
constexpr Rule kEditRule {.validate = editTarget};
constexpr Rule kCanvasRule {.locksChannel = true, .validate = canvasShape, .prepare = canvasSwap};
constexpr Rule kTypingRule {.fanOutOnly = true};
// NIP-29 admin kinds (ChannelAdmin): checked at step 9, applied after the row.
constexpr Rule kAdminRule {.authorise = adminRules, .apply = adminEffects};
constexpr Rule kCreateRule {.resolve = newChannel,
                            .locksChannel = true,
                            .readsChannel = false,
                            .checksAccess = false,
                            .validate = adminRules,
                            .apply = adminEffects};
constexpr Rule kJoinRule {.checksAccess = false, .validate = adminRules, .apply = adminEffects};
constexpr Rule kGroupDeleteEventRule {.validate = groupDeleteTarget, .apply = groupDeleteEffects};
} // namespace

const KindRuleTable::Rule &KindRuleTable::forKind(int kind)
{
    switch (kind) {
    case kinds::kReaction:
        return kReactionRule;
    case kinds::kDeletion:
        return kDeletionRule;
    case kinds::kProfile:
        return kProfileRule;
    case kinds::kMessageEdit:
        return kEditRule;
    case kinds::kCanvas:
        return kCanvasRule;
    case kinds::kTyping:
        return kTypingRule;
    case kinds::kGroupCreate:
        return kCreateRule;
    case kinds::kGroupJoin:
        return kJoinRule;
    case kinds::kGroupDeleteEvent:
        return kGroupDeleteEventRule;
    default:
        return KindRules::isChannelAdmin(kind) ? kAdminRule : kDefault;
    }
}

} // namespace buzz::relay::ingest
