#include "relay/ingest/CanvasCas.h"

#include "net/nostr/EventOrder.h"
#include "relay/ingest/KindRules.h"

#include <algorithm>
#include <cctype>

namespace buzz::relay::ingest {

namespace {
std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}
} // namespace

std::optional<IngestResult> CanvasCas::validate(const nostr::Event &event, std::int64_t now,
                                                Expectation &expectation)
{
    const nostr::Tag *tag = nullptr;
    for (const auto &candidate : event.tags) {
        if (candidate.empty() || candidate[0] != "expected-revision")
            continue;
        if (tag)
            return IngestResult::rejected("invalid: duplicate expected-revision tag");
        tag = &candidate;
    }
    if (tag) {
        if (tag->size() != 2)
            return IngestResult::rejected(
                "invalid: expected-revision tag must have exactly one value");
        const std::string &value = (*tag)[1];
        expectation.present = true;
        if (value == "none")
            expectation.head.reset();
        else if (KindRules::isHex64(lowered(value))) // a comparison value: either case
            expectation.head = lowered(value);
        else
            return IngestResult::rejected("invalid: bad expected canvas revision");
    }
    if (event.createdAt > now + kMaxFutureSeconds)
        return IngestResult::rejected("invalid: canvas event timestamp too far in the future");
    return std::nullopt;
}

CanvasCas::Outcome CanvasCas::decide(store::EventLookup &reader, const std::string &community,
                                     const std::string &channel, const nostr::Event &event,
                                     const Expectation &expectation)
{
    const auto head = reader.canvasHead(community, channel);
    // Idempotent replay of the current head: accepted without looking at the precondition.
    if (head && head->id == event.id)
        return {std::nullopt, Decision::DuplicateHead};
    // The same bytes exist but are not the live head (superseded or deleted): never a false
    // success.
    if (reader.findById(community, event.id))
        return {IngestResult::conflict(kChanged), Decision::Insert};
    if (!expectation.present)
        return {std::nullopt, Decision::Insert};
    if (!expectation.head) {
        if (head)
            return {IngestResult::conflict(kChanged), Decision::Insert};
        return {std::nullopt, Decision::Insert};
    }
    if (!head)
        return {IngestResult::conflict(kMissing), Decision::Insert};
    if (*expectation.head != head->id)
        return {IngestResult::conflict(kChanged), Decision::Insert};
    // Strict supersede (nostr::isNewer): later second, or the same second with a lower id.
    if (!nostr::isNewer(event.createdAt, event.id, head->createdAt, head->id))
        return {IngestResult::conflict(kNotSuperseding), Decision::Insert};
    return {std::nullopt, Decision::Insert};
}

} // namespace buzz::relay::ingest
