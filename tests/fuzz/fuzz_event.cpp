// Event JSON parse: the fast text parser must never crash, must agree with the general (value)
// parser, and a parsed event must survive toJson → parse unchanged with the same id.

#include "FuzzCheck.h"

#include "net/nostr/Event.h"

#include <nlohmann/json.hpp>

using buzz::nostr::Event;

namespace {

bool sameEvent(const Event &a, const Event &b)
{
    return a.id == b.id && a.pubkey == b.pubkey && a.createdAt == b.createdAt && a.kind == b.kind
        && a.tags == b.tags && a.content == b.content && a.sig == b.sig;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const auto parsed = Event::fromJson(text);

    // The general parser (nlohmann value) is what other paths use; both must accept the same
    // documents and read the same event from them.
    const auto value = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (!value.is_discarded()) {
        const auto viaValue = Event::fromJson(value);
        FUZZ_CHECK(bool(parsed) == bool(viaValue), "text and value parsers disagree on validity");
        if (parsed && viaValue)
            FUZZ_CHECK(sameEvent(*parsed, *viaValue),
                       "text and value parsers read different events");
    } else {
        FUZZ_CHECK(!parsed, "text parser accepted what is not JSON");
    }
    if (!parsed)
        return 0;

    const std::string once = parsed->toJson();
    const auto again = Event::fromJson(std::string_view(once));
    FUZZ_CHECK(bool(again), "toJson output does not parse back");
    FUZZ_CHECK(sameEvent(*parsed, *again), "parse → toJson → parse changed the event");
    FUZZ_CHECK(again->toJson() == once, "toJson is not stable across a round trip");
    const std::string id = parsed->computeId();
    FUZZ_CHECK(id.size() == 64, "computeId is not 64 hex characters");
    FUZZ_CHECK(again->computeId() == id, "id changed across a round trip");
    // verify() must answer (either way) without crashing on any parsed event.
    (void)parsed->verificationError();
    return 0;
}
