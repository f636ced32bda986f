// A deleted channel (kind 9008) stays deleted: its id is retired, so a kind 9007 naming it is
// refused as a duplicate (by anyone, its owner too) and no new channel inherits its history or
// canvas head; nothing it held is readable by any read path (HTTP and WebSocket history, counts,
// threads, cursors, search and its hydration), also after the relay restarts on the same store.

#include "test_engine_support.h"

#include "relay/store/postgres/PgConnection.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace enginetest;
using Status = IngestResult::Status;

namespace {
const std::string kPrivate = "5d0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d0f";

std::string quoted(const std::vector<std::string> &values)
{
    std::string out;
    for (const auto &value : values)
        out += (out.empty() ? "\"" : ",\"") + value + "\"";
    return out;
}
} // namespace

class TestIngestChannelDelete : public QObject
{
    Q_OBJECT

private:
    // The store the engine runs on, kept across a restart: a data directory, or (PostgreSQL run)
    // the schema PgTestCluster handed out.
    std::unique_ptr<QTemporaryDir> m_dir;
    std::optional<buzz::relay::test::PgUrls> m_pg;
    std::unique_ptr<RelayEngine> m_engine;
    std::atomic<std::int64_t> m_now {EngineHarness::kStart};

    Identity owner, removed, stranger;
    std::vector<std::string> m_ids; // everything stored in the deleted channel

    void startEngine()
    {
        m_engine.reset();
        RelayEngine::Options options;
        if (m_pg)
            options.databaseUrl = m_pg->writer;
        else
            options.dataDir = m_dir->path().toStdString();
        options.relaySecretKeyHex = std::string(63, '0') + "1";
        options.clock = [this] {
            return m_now.load();
        };
        m_engine = std::make_unique<RelayEngine>(std::move(options));
        QVERIFY2(m_engine->startupError().empty(), m_engine->startupError().c_str());
    }

    IngestResult submit(const Identity &who, int kind, nostr::Tags tags, std::string content = {})
    {
        return m_engine->ingest(who.sign(kind, ++m_now, std::move(tags), std::move(content)),
                                who.http());
    }
    std::string stored(const Identity &who, int kind, nostr::Tags tags, std::string content = {})
    {
        const auto event = who.sign(kind, ++m_now, std::move(tags), std::move(content));
        const auto result = m_engine->ingest(event, who.http());
        if (result.status != Status::Stored)
            qWarning("kind %d refused: %s", kind, result.message.c_str());
        m_ids.push_back(event.id);
        return result.status == Status::Stored ? event.id : std::string();
    }
    QueryResult read(const Identity &who, const std::string &filters, ReadPath path)
    {
        auto parsed = nostr::Filter::listFromJson(filters);
        if (!parsed)
            return QueryResult {QueryResult::Status::BadRequest, parsed.error()};
        const bool counting = path == ReadPath::BridgeCount || path == ReadPath::CountReq;
        return counting ? m_engine->count(parsed.value(), who.http(), path)
                        : m_engine->query(parsed.value(), who.http(), path);
    }

    void fillAndDelete()
    {
        QCOMPARE(int(submit(owner, 9007,
                            {{"h", kPrivate}, {"name", "secret"}, {"visibility", "private"}})
                         .status),
                 int(Status::Stored));
        QVERIFY(!stored(owner, 9000, {{"h", kPrivate}, {"p", removed.pubkey()}}).empty());
        QVERIFY(!stored(removed, 9, {{"h", kPrivate}}, "zebra before the removal").empty());
        QVERIFY(!stored(owner, 9001, {{"h", kPrivate}, {"p", removed.pubkey()}}).empty());
        const std::string root = stored(owner, 9, {{"h", kPrivate}}, "zebra after the removal");
        QVERIFY(!root.empty());
        QVERIFY(
            !stored(owner, 9, {{"h", kPrivate}, {"e", root, "", "root"}}, "zebra reply").empty());
        QVERIFY(!stored(owner, 40100, {{"h", kPrivate}, {"expected-revision", "none"}},
                        "# zebra canvas")
                     .empty());
        QVERIFY(!stored(owner, 9008, {{"h", kPrivate}}).empty());
    }

    void idIsRetired()
    {
        for (const Identity *who : {&removed, &stranger, &owner}) {
            for (const char *visibility : {"private", "open"}) {
                const auto result =
                    submit(*who, 9007,
                           {{"h", kPrivate}, {"name", "reclaimed"}, {"visibility", visibility}});
                QCOMPARE(int(result.status), int(Status::RejectedDuplicate));
                QCOMPARE(result.message, std::string("duplicate: channel already exists"));
            }
        }
        // Nothing can be written into it either.
        const auto canvas =
            submit(owner, 40100, {{"h", kPrivate}, {"expected-revision", "none"}}, "# new");
        QCOMPARE(int(canvas.status), int(Status::Rejected));
    }

    void nothingIsReadable()
    {
        const std::string channelFilter =
            "[{\"kinds\":[9,40100,40099,39000,39001,39002,9000,9001,9007,9008],\"#h\":[\""
            + kPrivate + "\"]}]";
        const std::string idFilter = "[{\"ids\":[" + quoted(m_ids) + "]}]";
        const std::string cursor = "[{\"kinds\":[9,40100],\"#h\":[\"" + kPrivate
            + "\"],\"until\":" + std::to_string(m_now.load() + 1) + ",\"before_id\":\""
            + std::string(64, '0') + "\",\"limit\":50}]";
        const std::string thread = "[{\"kinds\":[9],\"#e\":[\"" + m_ids[4]
            + "\"],\"depth_limit\":3,\"#h\":[\"" + kPrivate + "\"]}]";
        const std::string search = "[{\"kinds\":[9,40100],\"search\":\"zebra\"}]";
        for (const Identity *who : {&owner, &removed, &stranger}) {
            QVERIFY(!m_engine->canRead("local", kPrivate, who->pubkey()));
            for (const std::string &filters : {channelFilter, idFilter, cursor, thread, search}) {
                for (ReadPath path : {ReadPath::BridgeQuery, ReadPath::ReqHistorical}) {
                    const auto result = read(*who, filters, path);
                    QVERIFY2(result.status == QueryResult::Status::Ok, result.message.c_str());
                    if (!result.events.empty())
                        qWarning("%s read %s", filters.c_str(), result.events.front().json.c_str());
                    QVERIFY(result.events.empty());
                }
            }
            for (const std::string &filters : {channelFilter, idFilter}) {
                for (ReadPath path : {ReadPath::BridgeCount, ReadPath::CountReq}) {
                    const auto result = read(*who, filters, path);
                    QVERIFY2(result.status == QueryResult::Status::Ok, result.message.c_str());
                    QCOMPARE(result.count, std::int64_t(0));
                }
            }
        }
    }

private slots:
    void init()
    {
        owner = Identity {};
        removed = Identity {};
        stranger = Identity {};
        m_ids.clear();
        m_pg = buzz::relay::test::PgTestCluster::freshStore();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        startEngine();
        fillAndDelete();
    }
    void cleanup() { m_engine.reset(); }

    void deletedChannelIdIsNeverCreatedAgain()
    {
        idIsRetired();
        nothingIsReadable();
    }

    void stillRetiredAfterARestart()
    {
        startEngine();
        idIsRetired();
        nothingIsReadable();
    }

    void aChannelDeletedBeforeRetirementIsRetiredOnUpgrade()
    {
        // A store written before deleted ids were recorded: the relay learns them on upgrade
        // from the events the deleted channels left.
        m_engine.reset();
        if (m_pg) {
            std::string error;
            auto connection = store::PgConnection::open(m_pg->writer, error);
            QVERIFY2(connection, error.c_str());
            QVERIFY(connection->execOk("DROP TABLE retired_channels"));
            QVERIFY(connection->execOk(
                "UPDATE relay_meta SET value = 'pg-1' WHERE key = 'schema_version'"));
        } else {
            sqlite3 *db = nullptr;
            const std::string path = m_dir->path().toStdString() + "/relay.sqlite3";
            QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
            const int rc = sqlite3_exec(db,
                                        "DROP TABLE retired_channels; UPDATE relay_meta SET value "
                                        "= '2' WHERE key = 'schema_version'",
                                        nullptr, nullptr, nullptr);
            sqlite3_close_v2(db);
            QCOMPARE(rc, SQLITE_OK);
        }
        startEngine();
        idIsRetired();
        nothingIsReadable();
    }
};

QTEST_GUILESS_MAIN(TestIngestChannelDelete)
#include "test_ingest_channel_delete.moc"
