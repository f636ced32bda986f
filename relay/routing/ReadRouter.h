#pragma once

#include "relay/model/ReadRequest.h"
#include "relay/routing/ReadLease.h"

namespace buzz::relay::routing {

// Where every read gets its connection: query, search hydration and the engine ask this, never
// the store, so the pools behind it (writer only, simulated replicas, a real standby) can change
// without touching a reader.
class ReadRouter
{
public:
    virtual ~ReadRouter() = default;
    virtual ReadLease route(const ReadRequest &request) = 0;
    // True when no read can be served by anything but the writer database (so a permission
    // decision made on the lease's own connection already reads the writer).
    virtual bool servesOnlyFromWriter() const { return false; }
};

} // namespace buzz::relay::routing
