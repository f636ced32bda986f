#pragma once

#include "relay/store/EventLookup.h"
#include "relay/store/EventRows.h"

#include <cstdint>
#include <string>

namespace buzz::relay::store {

// One write of the store's writer, as ingest sees it: the lookups and row changes it makes run on
// the writer inside this transaction (or this savepoint of a group transaction, see Store).
class WriteTransaction
{
public:
    virtual ~WriteTransaction() = default;

    virtual EventLookup &reader() = 0;
    virtual EventRows &rows() = 0;
    virtual std::int64_t startedAtMs() const = 0;
    // Called before a write that reads a channel's rows and decides on them (canvas CAS, channel
    // creation): until this write's transaction ends, no other writer of the database runs the
    // same for that channel, so the decision sees every write committed before it. One writer
    // connection already gives that (SQLite: nothing to do); several relay processes on one
    // PostgreSQL need the database to (relay/README.md "Several processes on one PostgreSQL").
    // False → the lock could not be taken; answer an internal error.
    virtual bool lockChannel(const std::string &community, const std::string &channel) = 0;
    // An event this write makes visible, for the live fan-out of the other relay processes on
    // the same database (relay/README.md "Live fan-out across processes"); `hasRow` false for one
    // that is fanned out and never stored (kind 20002). Called before commit(), forgotten with a
    // rollback. Nothing to do where one process holds the database (SQLite).
    virtual void announce(const StoredEvent &, bool /*hasRow*/) { }
    // Keeps the changes. Inside a group (Store::writeInGroup) they become durable with the
    // group's COMMIT, which the group reports. False → rolled back.
    virtual bool commit(std::int64_t committedAtMs) = 0;
    virtual void rollback() = 0;
};

} // namespace buzz::relay::store
