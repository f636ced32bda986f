#pragma once

#include "net/nostr/Filter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

// One filter as a read of the events table, whatever the backend: each backend pushes everything
// SQL can express down into one statement (so pages are not cut short by post-filtering), and the
// caller still re-matches every row (query::EventMatcher).
struct EventQuery
{
    enum class Mode { Page, Count, Thread };

    const nostr::Filter &filter;
    const std::string &community;
    const std::string &viewer;
    // The filter's `#h` values the viewer may read (lower-cased), when the filter has `#h`;
    // ignored otherwise.
    const std::vector<std::string> &accessibleChannels;
    Mode mode = Mode::Page;
    // Without `#h`: every channel the viewer may read as decided on the writer; null = the access
    // is expressed in SQL against the connection the statement runs on (the writer's, then).
    const std::vector<std::string> *viewerChannels = nullptr;

    // The LIMIT a page (or thread page) of `filter` is read with.
    static int effectiveLimit(const nostr::Filter &filter, Mode mode);
};

// A NIP-50 full-text query: relevance-ordered hits, scoped in the statement (the caller's
// community, the listed channels plus channel-less events when asked, the filter's kinds, authors
// and time bounds), so LIMIT counts only hits the caller may be shown.
struct TextQuery
{
    std::string match; // the backend's form of the words (Store::textMatch)
    std::string community;
    std::vector<std::string> channels;
    bool includeGlobal = true;
    std::optional<std::vector<int>> kinds;
    std::optional<std::vector<std::string>> authors;
    std::optional<std::int64_t> since;
    std::optional<std::int64_t> until;
    int limit = 100;
};

} // namespace buzz::relay::store
