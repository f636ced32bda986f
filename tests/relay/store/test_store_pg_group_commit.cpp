// The PostgreSQL writer's group commit (store::PgStore), straight through the store: each grouped
// event costs one round trip to the server, its BEGIN / SAVEPOINT / RELEASE travelling with its
// statements (docs/benchmarks.md "PostgreSQL"), and what a client relies on stays: a work that
// released its savepoint is committed and readable by another connection once the group reports
// it, a work that did not leaves nothing, and the other works of its group are unaffected.

#include "PgTestCluster.h"

#include "relay/model/StoredEvent.h"
#include "relay/store/PgConnection.h"
#include "relay/store/PgStore.h"
#include "test_engine_support.h"

#include <QDateTime>
#include <QTest>

#include <condition_variable>
#include <mutex>

using namespace buzz;
using namespace buzz::relay;
using namespace enginetest;

namespace {

StoredEvent note(const Identity &who, std::int64_t now, int i)
{
    const auto event = who.sign(1, now, {{"t", "group"}}, "note " + std::to_string(i));
    return StoredEvent {event, event.toJson(), "local", std::nullopt};
}

std::int64_t storedCount(const std::string &url, const std::vector<StoredEvent> &events)
{
    std::string error;
    auto connection = store::PgConnection::open(url, error);
    if (!connection)
        return -1;
    std::vector<std::string> ids;
    for (const auto &stored : events)
        ids.push_back(stored.event.id);
    store::PgResult count =
        connection->run("SELECT count(*) FROM events WHERE encode(id, 'hex') = ANY($1::text[])",
                        store::PgParams().textArray(ids));
    return count.ok() ? count.int64(0, 0) : -1;
}

// Queues `works` behind a blocker, so that they run as one group once it is released.
struct OneGroup
{
    explicit OneGroup(store::PgStore &store)
        : m_store(store)
    {
        m_store.writeInGroupAsync(
            "local", 0,
            [this](store::WriteTransaction &) {
                std::unique_lock lock(m_mutex);
                m_released.wait(lock, [this] { return m_open; });
            },
            [](store::Store::GroupOutcome) {});
    }
    void add(store::Store::GroupWork work)
    {
        const std::size_t index = m_outcomes.size();
        m_outcomes.push_back(std::nullopt);
        m_store.writeInGroupAsync("local", 0, std::move(work),
                                  [this, index](store::Store::GroupOutcome outcome) {
                                      std::lock_guard lock(m_mutex);
                                      m_outcomes[index] = outcome;
                                      m_done.notify_all();
                                  });
    }
    std::vector<store::Store::GroupOutcome> run()
    {
        std::unique_lock lock(m_mutex);
        m_open = true;
        m_released.notify_all();
        const bool finished = m_done.wait_for(lock, std::chrono::seconds(30), [this] {
            return std::all_of(m_outcomes.begin(), m_outcomes.end(),
                               [](const auto &outcome) { return outcome.has_value(); });
        });
        std::vector<store::Store::GroupOutcome> outcomes;
        if (finished) {
            for (const auto &outcome : m_outcomes)
                outcomes.push_back(*outcome);
        }
        return outcomes;
    }

private:
    store::PgStore &m_store;
    std::mutex m_mutex;
    std::condition_variable m_released, m_done;
    bool m_open = false;
    std::vector<std::optional<store::Store::GroupOutcome>> m_outcomes;
};

} // namespace

class TestStorePgGroupCommit : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        const auto urls = test::PgTestCluster::freshStore();
        QVERIFY(urls);
        m_url = urls->writer;
        std::string error;
        m_store = store::PgStore::open(m_url, QDateTime::currentSecsSinceEpoch(), error);
        QVERIFY2(m_store, error.c_str());
    }
    void cleanup() { m_store.reset(); }

    void aGroupCostsOneRoundTripPerEvent()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        std::vector<StoredEvent> events;
        for (int i = 0; i < 40; ++i)
            events.push_back(note(author, now, i));
        // Warm up: the insert statement is prepared on its first use.
        QCOMPARE(m_store->writeInGroup("local", 0,
                                       [&](store::WriteTransaction &tx) {
                                           tx.rows().insertEvent(note(author, now, -1),
                                                                 std::nullopt, now, std::nullopt);
                                           tx.commit(0);
                                       }),
                 store::Store::GroupOutcome::Committed);
        OneGroup group(*m_store);
        for (const auto &stored : events) {
            group.add([&stored, now](store::WriteTransaction &tx) {
                if (tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt)
                    == store::EventRows::InsertOutcome::Inserted)
                    tx.commit(0);
            });
        }
        const std::uint64_t before = m_store->writerRoundTrips();
        const auto outcomes = group.run();
        const std::uint64_t trips = m_store->writerRoundTrips() - before;
        QCOMPARE(outcomes.size(), events.size());
        for (const auto outcome : outcomes)
            QCOMPARE(outcome, store::Store::GroupOutcome::Committed);
        // One per event and one for the group's end (COMMIT); each used to cost three
        // (SAVEPOINT, INSERT, RELEASE) plus BEGIN, the fan-out record and COMMIT.
        QVERIFY2(trips <= events.size() + 1, std::to_string(trips).c_str());
        QCOMPARE(storedCount(m_url, events), std::int64_t(events.size()));
    }

    void aWorkThatDoesNotCommitLeavesOnlyItselfOut()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        const std::vector<StoredEvent> events {note(author, now, 0), note(author, now, 1),
                                               note(author, now, 2), note(author, now, 3)};
        const auto insertAndCommit = [&](const StoredEvent &stored) {
            return [&stored, now](store::WriteTransaction &tx) {
                QCOMPARE(tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt),
                         store::EventRows::InsertOutcome::Inserted);
                QVERIFY(tx.commit(0));
            };
        };
        OneGroup group(*m_store);
        group.add(insertAndCommit(events[0]));
        // Inserted, then refused (no commit): its row is rolled back with its savepoint.
        group.add([&](store::WriteTransaction &tx) {
            QCOMPARE(tx.rows().insertEvent(events[1], std::nullopt, now, std::nullopt),
                     store::EventRows::InsertOutcome::Inserted);
        });
        // Refused before any statement, then one that ran nothing and committed.
        group.add([](store::WriteTransaction &tx) { tx.rollback(); });
        group.add([](store::WriteTransaction &tx) { QVERIFY(tx.commit(0)); });
        group.add(insertAndCommit(events[2]));
        // A duplicate of a row an earlier work of the same group inserted.
        group.add([&](store::WriteTransaction &tx) {
            QCOMPARE(tx.rows().insertEvent(events[2], std::nullopt, now, std::nullopt),
                     store::EventRows::InsertOutcome::AlreadyExists);
        });
        group.add(insertAndCommit(events[3]));
        using Outcome = store::Store::GroupOutcome;
        const std::vector<Outcome> expected {
            Outcome::Committed, Outcome::Discarded, Outcome::Discarded, Outcome::Committed,
            Outcome::Committed, Outcome::Discarded, Outcome::Committed};
        QCOMPARE(group.run(), expected);
        QCOMPARE(storedCount(m_url, {events[0], events[2], events[3]}), 3);
        QCOMPARE(storedCount(m_url, {events[1]}), 0);
    }

private:
    std::string m_url;
    std::unique_ptr<store::PgStore> m_store;
};

QTEST_GUILESS_MAIN(TestStorePgGroupCommit)
#include "test_store_pg_group_commit.moc"
