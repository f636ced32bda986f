#pragma once

#include "relay/routing/ReadRouter.h"

namespace buzz::relay::store {
class Store;
}

namespace buzz::relay::routing {

// Routing off (no replica, or a budget of 0): every read on the writer database, reason
// "disabled".
class WriterOnlyRouter : public ReadRouter
{
public:
    explicit WriterOnlyRouter(store::Store &database)
        : m_database(database)
    { }
    ReadLease route(const ReadRequest &request) override;
    bool servesOnlyFromWriter() const override { return true; }

private:
    store::Store &m_database;
};

} // namespace buzz::relay::routing
