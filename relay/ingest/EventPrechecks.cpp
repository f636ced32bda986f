#include "relay/ingest/EventPrechecks.h"

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
    if (event.kind == 22242)
        return fail(Status::Rejected, "invalid: AUTH events cannot be submitted");
    if (event.kind == 44100 || event.kind == 44101)
        return fail(Status::Rejected, "invalid: membership notifications are relay-signed only");
    if (context.transport == Transport::Http && (event.kind == 1059 || event.kind == 20001))
        return fail(Status::Rejected,
                    "invalid: kind " + std::to_string(event.kind)
                        + " is only accepted via WebSocket");
    if (event.kind == 40901 || event.kind == 40902 || event.kind == 30621 || event.kind == 30622)
        return fail(Status::Rejected, "restricted: relay-only kind");
    if (auto error = event.verificationError())
        return fail(Status::Rejected, "invalid: " + *error);
    if (std::llabs(event.createdAt - now) > kMaxClockSkewSeconds)
        return fail(Status::Rejected, "invalid: event timestamp too far from server time");
    if (event.content.size() > kMaxContentBytes)
        return fail(Status::Rejected,
                    "invalid: content exceeds maximum size of 262144 bytes (got "
                        + std::to_string(event.content.size()) + ")");
    if (event.pubkey != context.pubkey && event.kind != 1059)
        return fail(Status::Forbidden,
                    "invalid: event pubkey does not match authenticated identity");
    if (!KindRules::isAllowedFromClient(event.kind))
        return fail(Status::Rejected, "restricted: unknown event kind");
    return std::nullopt;
}

} // namespace buzz::relay::ingest
