#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay {

// NIP-98 event ids remembered for every relay process of a deployment (relay/README.md "Several
// processes on one PostgreSQL"): a token used through one process is a replay through any other.
// Each process keeps its own auth/ReplayCache in front of it. Thread-safe.
class SharedReplayCache
{
public:
    virtual ~SharedReplayCache() = default;

    // True when no process remembered `id` within the last `windowSecs` before `now` (it is
    // remembered now); false on a replay; nullopt when the shared store could not answer.
    virtual std::optional<bool> remember(const std::string &id, std::int64_t now,
                                         std::int64_t windowSecs) = 0;
};

} // namespace buzz::relay
