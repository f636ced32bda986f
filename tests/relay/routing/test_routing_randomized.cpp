// Randomized histories (fixed seeds): replicas with lag, pauses, out-of-order commits within the
// ±900 s ingest window, soft deletes, heartbeats and replay at random moments. Every channel and
// one thread are paged to the end through the routed path while the history keeps moving, and
// compared with the writer's commit record:
//   - no row appears twice in a walk;
//   - no row is missing that was committed before the walk's first page and never deleted
//     (a first page served by a replica may be as old as the budget: that is the documented
//     bound of the bounded arm, so for such a walk "before" means before first-page − budget).

#include "test_routing_support.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace routingtest;

namespace {
const std::string kChannel = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d03";
constexpr int kHistories = 240;

struct Row
{
    std::int64_t committedAtMs = 0;
    std::optional<std::int64_t> deletedAtMs;
    bool reply = false;
    std::int64_t createdAt = 0;
    int sequence = 0; // commit order: the clock may not move between two commits
};

class History
{
public:
    explicit History(std::uint32_t seed)
        : m_random(seed)
        , m_harness(options(m_random))
    {
        m_harness.createChannel(kChannel);
        m_root = m_harness.post(kChannel, m_harness.nowSec() - 100, "root");
        m_rows[m_root] = Row {m_harness.clock->nowMs(), std::nullopt, false};
    }

    RoutingHarness &harness() { return m_harness; }

    // One random thing happening to the relay.
    void step()
    {
        auto &h = m_harness;
        const int what = pick(0, 99);
        if (what < 40) {
            const bool reply = pick(0, 2) == 0;
            const std::int64_t createdAt = h.nowSec() + pick(-900, 900);
            const std::string content = "row " + std::to_string(m_serial++);
            const std::string id = reply ? h.reply(kChannel, m_root, createdAt, content)
                                         : h.post(kChannel, createdAt, content);
            if (!id.empty())
                m_rows[id] = Row {h.clock->nowMs(), std::nullopt, reply, createdAt, ++m_sequence};
        } else if (what < 47) {
            deleteSomething();
        } else if (what < 65) {
            h.replicas().heartbeat();
        } else if (what < 80) {
            h.replay();
        } else if (what < 84) {
            auto &replica = h.replica(pick(0, h.replicas().size() - 1));
            replica.setPaused(!replica.paused());
        } else if (what < 97) {
            h.advanceMs(pick(0, 3) == 0 ? pick(100'000, 1'200'000) : pick(0, 3000));
        } else {
            h.setLagMs(pick(0, h.replicas().size() - 1), pick(0, 3) * 700);
        }
    }

    QString walkChannel(int limit, ReadPath path)
    {
        auto &h = m_harness;
        const std::int64_t firstPageMs = h.clock->nowMs();
        const int firstPageSequence = m_sequence;
        std::vector<std::string> seen;
        QueryResult page = h.read(channelFilter(kChannel, limit), path);
        const bool headOnReplica = page.route == "replica";
        for (int guard = 0; guard < 2000; ++guard) {
            if (page.status != QueryResult::Status::Ok)
                return QString("page failed: %1").arg(QString::fromStdString(page.message));
            for (const auto &stored : page.events)
                seen.push_back(stored.event.id);
            if (static_cast<int>(page.events.size()) < limit)
                return check(seen, firstPageMs, firstPageSequence, headOnReplica, false);
            const auto &last = page.events.back().event;
            for (int i = pick(0, 2); i > 0; --i)
                step();
            page = h.read(channelPage(kChannel, limit, last.createdAt, last.id), path);
        }
        return "walk did not end";
    }

    QString walkThread(int limit)
    {
        auto &h = m_harness;
        const std::int64_t firstPageMs = h.clock->nowMs();
        const int firstPageSequence = m_sequence;
        std::vector<std::string> seen;
        std::optional<std::int64_t> since;
        std::string afterId;
        for (int guard = 0; guard < 2000; ++guard) {
            const QueryResult page = h.read(threadPage(kChannel, m_root, limit, since, afterId),
                                            ReadPath::BridgeThreadAux);
            if (page.status != QueryResult::Status::Ok)
                return QString("page failed: %1").arg(QString::fromStdString(page.message));
            for (const auto &stored : page.events)
                seen.push_back(stored.event.id);
            if (static_cast<int>(page.events.size()) < limit)
                return check(seen, firstPageMs, firstPageSequence, false, true);
            since = page.events.back().event.createdAt;
            afterId = page.events.back().event.id;
            for (int i = pick(0, 2); i > 0; --i)
                step();
        }
        return "walk did not end";
    }

    int replicaPages()
    {
        return int(m_harness.replicas().metrics().total(RouteDecisionLabel::Replica));
    }

private:
    static HarnessOptions options(std::mt19937 &random)
    {
        HarnessOptions o;
        o.replicas = std::uniform_int_distribution<int>(1, 2)(random);
        const std::int64_t budgets[] = {500, 1000, 5000};
        o.budgetMs = budgets[std::uniform_int_distribution<int>(0, 2)(random)];
        const std::int64_t lags[] = {0, 200, 2000, 20000};
        o.lagMs = lags[std::uniform_int_distribution<int>(0, 3)(random)];
        return o;
    }

    int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }

    void deleteSomething()
    {
        if (m_rows.size() < 3)
            return;
        auto it = std::next(m_rows.begin(), pick(0, int(m_rows.size()) - 1));
        if (it->first == m_root || it->second.deletedAtMs)
            return;
        if (m_harness.remove(it->first))
            it->second.deletedAtMs = m_harness.clock->nowMs();
    }

    QString check(const std::vector<std::string> &seen, std::int64_t firstPageMs,
                  int firstPageSequence, bool headOnReplica, bool thread)
    {
        std::set<std::string> unique;
        for (const auto &id : seen) {
            if (!unique.insert(id).second)
                return QString("row %1 appeared twice")
                    .arg(QString::fromStdString(id.substr(0, 8)));
            if (!m_rows.count(id))
                return QString("row %1 was never committed")
                    .arg(QString::fromStdString(id.substr(0, 8)));
        }
        const std::int64_t cutoffMs =
            headOnReplica ? firstPageMs - m_harness.replicas().budgetMs() : firstPageMs;
        for (const auto &[id, row] : m_rows) {
            if (thread && !row.reply)
                continue;
            if (row.deletedAtMs || row.sequence > firstPageSequence || row.committedAtMs > cutoffMs
                || unique.count(id))
                continue;
            return QString("row %1 committed at %2 (first page %3) is missing")
                .arg(QString::fromStdString(id.substr(0, 8)))
                .arg(row.committedAtMs)
                .arg(firstPageMs);
        }
        return {};
    }

    std::mt19937 m_random;
    RoutingHarness m_harness;
    std::string m_root;
    std::map<std::string, Row> m_rows;
    int m_serial = 0;
    int m_sequence = 0;
};
} // namespace

class TestRoutingRandomized : public QObject
{
    Q_OBJECT

private slots:
    void walksNeverSkipOrRepeat();
};

void TestRoutingRandomized::walksNeverSkipOrRepeat()
{
    int replicaServed = 0;
    int walks = 0;
    // Each PostgreSQL history is real I/O (commits, replay waits): fewer of them keep the run
    // short.
    const std::uint32_t histories = test::PgTestCluster::selected() ? 24 : kHistories;
    for (std::uint32_t seed = 1; seed <= histories; ++seed) {
        History history(seed);
        std::mt19937 local(seed * 7919u);
        for (int i = 0; i < 60; ++i)
            history.step();
        for (int round = 0; round < 3; ++round) {
            const int limit = std::uniform_int_distribution<int>(1, 5)(local);
            const ReadPath path = (round % 2) ? ReadPath::ReqHistorical : ReadPath::BridgeQuery;
            QString failure = history.walkChannel(limit, path);
            QVERIFY2(failure.isEmpty(),
                     qPrintable(QString("seed %1 channel walk: %2").arg(seed).arg(failure)));
            failure = history.walkThread(limit);
            QVERIFY2(failure.isEmpty(),
                     qPrintable(QString("seed %1 thread walk: %2").arg(seed).arg(failure)));
            walks += 2;
            for (int i = 0; i < 20; ++i)
                history.step();
        }
        replicaServed += history.replicaPages();
    }
    qInfo("%d walks over %d histories; %d reads served by replicas", walks, int(histories),
          replicaServed);
    QVERIFY2(replicaServed > 0, "the histories never exercised a replica");
}

QTEST_GUILESS_MAIN(TestRoutingRandomized)
#include "test_routing_randomized.moc"
