#include "relay/ingest/EventPrechecks.h"

#include "net/nostr/Kinds.h"
#include "relay/ingest/KindRules.h"

#include <cstdlib>
#include <string>

namespace buzz::relay::ingest {

namespace {
IngestResult fail(IngestResult::Status status, std::string message)
{
    return IngestResult {status, std::move(message)};
}
} // namespace

std::optional<IngestResult> EventPrechecks::run(const nostr::Event &event,
                                                const RequestContext &context, std::int64_t now)
{
    using Status = IngestResult::Status;
    if (event.kind == nostr::kinds::kAuth)
        return fail(Status::Rejected, "invalid: AUTH events cannot be submitted");
    if (event.kind == nostr::kinds::kMemberAddedNotice
        || event.kind == nostr::kinds::kMemberRemovedNotice)
        return fail(Status::Rejected, "invalid: membership notifications are relay-signed only");
    if (context.transport == Transport::Http
        && (event.kind == nostr::kinds::kGiftWrap || event.kind == nostr::kinds::kPresence))
        return fail(Status::Rejected,
                    "invalid: kind " + std::to_string(event.kind)
                        + " is only accepted via WebSocket");
    if (nostr::kinds::isRelayOnlySidecar(event.kind))
        return fail(Status::Rejected, "restricted: relay-only kind");
    if (auto error = event.verificationError())
        return fail(Status::Rejected, "invalid: " + *error);
    if (std::llabs(event.createdAt - now) > kMaxClockSkewSeconds)
        return fail(Status::Rejected, "invalid: event timestamp too far from server time");
    if (event.content.size() > kMaxContentBytes)
        return fail(Status::Rejected,
                    "invalid: content exceeds maximum size of 262144 bytes (got "
                        + std::to_string(event.content.size()) + ")");
    if (event.pubkey != context.pubkey && event.kind != nostr::kinds::kGiftWrap)
        return fail(Status::Forbidden,
                    "invalid: event pubkey does not match authenticated identity");
    // Typing is an ephemeral kind upstream's HTTP bridge does not list: unknown there.
    if (!KindRules::isAllowedFromClient(event.kind)
        || (context.transport == Transport::Http && event.kind == nostr::kinds::kTyping))
        return fail(Status::Rejected, "restricted: unknown event kind");
    return std::nullopt;
}

} // namespace buzz::relay::ingest
