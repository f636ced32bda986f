// The PostgreSQL writer's group commit (store::PgStore), straight through the store: a group's new
// events are inserted by one statement and its BEGIN / SAVEPOINT / RELEASE travel with other
// statements (docs/benchmarks.md "PostgreSQL"), and what a client relies on stays: every insert
// gets its exact answer (a duplicate in the group or in the store is AlreadyExists), a work reads
// what earlier works of its group wrote, a work that released its savepoint is committed and
// readable by another connection once the group reports it, and a work that did not leaves
// nothing while the other works of its group are unaffected.

#include "PgTestCluster.h"

#include "relay/model/StoredEvent.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgStore.h"
#include "test_engine_support.h"

#include <QDateTime>
#include <QTest>

#include <condition_variable>
#include <map>
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

    void aGroupOfEventsCostsOneRoundTrip()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        std::vector<StoredEvent> events;
        for (int i = 0; i < 40; ++i)
            events.push_back(note(author, now, i));
        const auto insert = [now](const StoredEvent &stored) {
            return [&stored, now](store::WriteTransaction &tx) {
                if (tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt)
                    == store::EventRows::InsertOutcome::Inserted)
                    tx.commit(0);
            };
        };
        // Warm up: the statements are prepared on their first use.
        const std::vector<StoredEvent> warmUp {note(author, now, -1), note(author, now, -2)};
        OneGroup first(*m_store);
        for (const auto &stored : warmUp)
            first.add(insert(stored));
        QCOMPARE(first.run().size(), warmUp.size());

        OneGroup group(*m_store);
        for (const auto &stored : events)
            group.add(insert(stored));
        const std::uint64_t before = m_store->writerRoundTrips();
        const auto outcomes = group.run();
        const std::uint64_t trips = m_store->writerRoundTrips() - before;
        QCOMPARE(outcomes.size(), events.size());
        for (const auto outcome : outcomes)
            QCOMPARE(outcome, store::Store::GroupOutcome::Committed);
        // The blocker's group sends nothing; this group's rows, COMMIT and position travel in
        // one round trip. Before: three per event (SAVEPOINT, INSERT, RELEASE), BEGIN, COMMIT.
        QVERIFY2(trips <= 1, std::to_string(trips).c_str());
        QCOMPARE(storedCount(m_url, events), std::int64_t(events.size()));
        QCOMPARE(m_store->retriedGroups(), 0u);
    }

    void answersAreExactWhateverTheGroupHolds()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        const std::vector<StoredEvent> events {note(author, now, 0), note(author, now, 1),
                                               note(author, now, 2), note(author, now, 3),
                                               note(author, now, 4)};
        // Stored by an earlier group: inserting it again is answered AlreadyExists.
        QCOMPARE(m_store->writeInGroup("local", 0,
                                       [&](store::WriteTransaction &tx) {
                                           tx.rows().insertEvent(events[4], std::nullopt, now,
                                                                 std::nullopt);
                                           tx.commit(0);
                                       }),
                 store::Store::GroupOutcome::Committed);
        using Insert = store::EventRows::InsertOutcome;
        // A work may run more than once (store/Store.h): the answers of its last run count.
        std::map<int, Insert> inserted;
        std::map<int, bool> found;
        const auto insertAndCommit = [&](int work, const StoredEvent &stored) {
            return [&, work](store::WriteTransaction &tx) {
                inserted[work] = tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt);
                if (inserted[work] == Insert::Inserted)
                    tx.commit(0);
            };
        };
        OneGroup group(*m_store);
        group.add(insertAndCommit(0, events[0]));
        // Inserted, then read back (its row and the one before must be there), then refused (no
        // commit): its row is rolled back with its savepoint, the one before stays.
        group.add([&](store::WriteTransaction &tx) {
            inserted[1] = tx.rows().insertEvent(events[1], std::nullopt, now, std::nullopt);
            found[1] = tx.reader().findById("local", events[1].event.id).has_value()
                && tx.reader().findById("local", events[0].event.id).has_value();
        });
        // Refused before any statement, then one that ran nothing and committed.
        group.add([](store::WriteTransaction &tx) { tx.rollback(); });
        group.add([](store::WriteTransaction &tx) { tx.commit(0); });
        group.add(insertAndCommit(4, events[2]));
        // A duplicate of a row an earlier work of the same group inserted, and of a stored one.
        group.add(insertAndCommit(5, events[2]));
        group.add(insertAndCommit(6, events[4]));
        group.add(insertAndCommit(7, events[3]));
        using Outcome = store::Store::GroupOutcome;
        const std::vector<Outcome> expected {
            Outcome::Committed, Outcome::Discarded, Outcome::Discarded, Outcome::Committed,
            Outcome::Committed, Outcome::Discarded, Outcome::Discarded, Outcome::Committed};
        QCOMPARE(group.run(), expected);
        const std::map<int, Insert> answers {{0, Insert::Inserted},      {1, Insert::Inserted},
                                             {4, Insert::Inserted},      {5, Insert::AlreadyExists},
                                             {6, Insert::AlreadyExists}, {7, Insert::Inserted}};
        QCOMPARE(inserted, answers);
        QVERIFY(found[1]);
        QCOMPARE(storedCount(m_url, {events[0], events[2], events[3], events[4]}), 4);
        QCOMPARE(storedCount(m_url, {events[1]}), 0);
    }

    void aWorkSeesTheRowsEarlierWorksOfItsGroupInserted()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        const std::vector<StoredEvent> events {note(author, now, 0), note(author, now, 1)};
        bool seen = false;
        OneGroup group(*m_store);
        for (const auto &stored : events) {
            group.add([&stored, now](store::WriteTransaction &tx) {
                tx.rows().insertEvent(stored, std::nullopt, now, std::nullopt);
                tx.commit(0);
            });
        }
        group.add([&](store::WriteTransaction &tx) {
            const auto first = tx.reader().findById("local", events[0].event.id);
            const auto second = tx.reader().findById("local", events[1].event.id);
            seen = first && second && second->stored.json == events[1].json;
            tx.rollback();
        });
        using Outcome = store::Store::GroupOutcome;
        QCOMPARE(
            group.run(),
            (std::vector<Outcome> {Outcome::Committed, Outcome::Committed, Outcome::Discarded}));
        QVERIFY(seen);
        QCOMPARE(storedCount(m_url, events), 2);
    }

    void aRolledBackWorkDoesNotTakeEarlierRowsAlong()
    {
        Identity author;
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        const std::vector<StoredEvent> events {note(author, now, 0), note(author, now, 1)};
        OneGroup group(*m_store);
        group.add([&](store::WriteTransaction &tx) {
            tx.rows().insertEvent(events[0], std::nullopt, now, std::nullopt);
            tx.commit(0);
        });
        // A lookup that does not read events opens its savepoint; one that does sends the row
        // held back for the work before inside it; then this work is refused.
        group.add([&](store::WriteTransaction &tx) {
            tx.reader().channel("local", "no-such-channel");
            tx.rows().insertEvent(events[1], std::nullopt, now, std::nullopt);
            tx.reader().findById("local", events[0].event.id);
            tx.rollback();
        });
        using Outcome = store::Store::GroupOutcome;
        QCOMPARE(group.run(), (std::vector<Outcome> {Outcome::Committed, Outcome::Discarded}));
        QCOMPARE(storedCount(m_url, {events[0]}), 1);
        QCOMPARE(storedCount(m_url, {events[1]}), 0);
    }

private:
    std::string m_url;
    std::unique_ptr<store::PgStore> m_store;
};

QTEST_GUILESS_MAIN(TestStorePgGroupCommit)
#include "test_store_pg_group_commit.moc"
