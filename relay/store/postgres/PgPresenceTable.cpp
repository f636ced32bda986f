#include "relay/store/postgres/PgPresenceTable.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgFanoutListener.h"

#include <QLoggingCategory>

#include <unordered_map>
#include <unordered_set>

Q_LOGGING_CATEGORY(lcPgPresence, "buzz.relay.store.presence")

namespace buzz::relay::store {

void PgPresenceTable::update(const std::string &community, const std::string &pubkey,
                             const std::string &status, std::int64_t createdAt, std::int64_t now)
{
    if (++m_updates % kSweepEvery == 0
        && !m_connection
                ->run("DELETE FROM presence WHERE received_at <= $1",
                      PgParams().int64(now - kTtlSeconds))
                .ok())
        qCWarning(lcPgPresence) << "sweeping expired presence failed";
    // A row still live with a newer created_at wins over this one (MemoryPresenceTable::update).
    PgResult result = status == kOffline
        ? m_connection->run(
            "DELETE FROM presence WHERE community = $1 AND pubkey = $2 "
            "AND (created_at <= $3 OR received_at <= $4)",
            PgParams().text(community).text(pubkey).int64(createdAt).int64(now - kTtlSeconds))
        : m_connection->run(
            "INSERT INTO presence (community, pubkey, status, created_at, received_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (community, pubkey) DO UPDATE SET "
            "status = excluded.status, created_at = excluded.created_at, "
            "received_at = excluded.received_at "
            "WHERE presence.created_at <= excluded.created_at OR presence.received_at <= $6",
            PgParams().text(community).text(pubkey).text(status).int64(createdAt).int64(now).int64(
                now - kTtlSeconds));
    if (!result.ok())
        qCWarning(lcPgPresence) << "presence update failed:" << result.message().c_str();
}

void PgPresenceTable::fanOut(const StoredEvent &stored)
{
    std::string id(32, '\0');
    if (m_fanoutChannel.empty()
        || !HexKey::decodeInto(stored.event.id, reinterpret_cast<std::uint8_t *>(id.data()), 32))
        return;
    // The lock first (the INSERT reads its row), so the number follows commit order as a group
    // commit's do; the statement is its own transaction, which holds the lock to its end.
    PgResult logged = m_connection->run(
        "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($1::int4, "
        "hashtext(current_schema()))), logged AS (INSERT INTO fanout_log (origin, community, "
        "created_at, event_id, event_json) SELECT $2, $3, $4, $5, $6 FROM locked RETURNING seq) "
        "SELECT pg_notify($7, $2 || ' ' || seq) FROM logged",
        PgParams()
            .int32(PgFanoutListener::kLockClass)
            .text(m_origin)
            .text(stored.community)
            .timestamp(stored.event.createdAt)
            .bytes(id)
            .text(stored.json)
            .text(m_fanoutChannel));
    if (!logged.ok())
        qCWarning(lcPgPresence) << "presence fan-out failed:" << logged.message().c_str();
}

std::vector<PresenceTable::Entry> PgPresenceTable::lookup(const std::string &community,
                                                          const std::vector<std::string> &pubkeys,
                                                          std::int64_t now)
{
    std::vector<Entry> live;
    PgResult rows =
        m_connection->run("SELECT pubkey, status, created_at FROM presence "
                          "WHERE community = $1 AND pubkey = ANY($2) AND received_at > $3",
                          PgParams().text(community).textArray(pubkeys).int64(now - kTtlSeconds));
    if (!rows.ok()) {
        qCWarning(lcPgPresence) << "presence lookup failed:" << rows.message().c_str();
        return live;
    }
    std::unordered_map<std::string, Entry> found;
    for (int row = 0; row < rows.rows(); ++row) {
        Entry entry {std::string(rows.text(row, 0)), std::string(rows.text(row, 1)),
                     rows.int64(row, 2)};
        found.emplace(entry.pubkey, std::move(entry));
    }
    // In the order asked, each author once, as MemoryPresenceTable answers.
    std::unordered_set<std::string> seen;
    for (const std::string &pubkey : pubkeys) {
        const auto entry = found.find(pubkey);
        if (entry != found.end() && seen.insert(pubkey).second)
            live.push_back(entry->second);
    }
    return live;
}

} // namespace buzz::relay::store
