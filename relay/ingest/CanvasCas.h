#pragma once

#include "net/nostr/Event.h"
#include "relay/model/IngestResult.h"
#include "relay/store/EventLookup.h"

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::ingest {

// Canvas compare-and-swap (docs/buzz-protocol.md §Canvas CAS). The caller holds the writer
// transaction, which serialises every canvas write of a (community, channel) — tagged or not — on
// one lock.
class CanvasCas
{
public:
    static constexpr std::int64_t kMaxFutureSeconds = 300;

    struct Expectation
    {
        bool present = false; // no tag → unconditional append
        std::optional<std::string> head; // nullopt with present → "none"
    };

    // Shape checks of the expected-revision tag and the 300 s future bound; nullopt when fine.
    static std::optional<IngestResult> validate(const nostr::Event &event, std::int64_t now,
                                                Expectation &expectation);

    enum class Decision { Insert, DuplicateHead };
    struct Outcome
    {
        std::optional<IngestResult> rejection; // set → answer it, write nothing
        Decision decision = Decision::Insert;
    };
    // Reads the live head and the candidate's own row (on the writer, inside the transaction).
    static Outcome decide(store::EventLookup &reader, const std::string &community,
                          const std::string &channel, const nostr::Event &event,
                          const Expectation &expectation);

    static constexpr const char *kChanged = "conflict: canvas changed since it was loaded";
    static constexpr const char *kMissing = "conflict: canvas revision does not exist";
    static constexpr const char *kNotSuperseding =
        "conflict: canvas write does not supersede the current head";
};

} // namespace buzz::relay::ingest
