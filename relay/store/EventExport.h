#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/store/ConnectionLease.h"

#include <functional>
#include <string>

namespace buzz::relay::store {

// Every stored event of one community, deleted and replaced ones included (their deletions and
// replacements are exported too and replay them), in (created_at, id) order: an order that
// depends on the events alone, so an export of an imported store is the same bytes
// (relay/README.md "Export and import"). Read in pages by key (ReadConnection::exportPage), so a
// large store is never held.
class EventExport
{
public:
    static constexpr int kPageRows = 1000;
    using Sink = std::function<void(const StoredEvent &)>;

    // False, with `error`, when a read failed; the sink has then seen a prefix of the events.
    static bool forEach(const ConnectionLease &lease, const std::string &community,
                        const Sink &sink, std::string &error);
};

} // namespace buzz::relay::store
