// A data directory written by an earlier relay (schema 1: tests/data/store-v1, see its README) is
// migrated in place when the relay opens it: every event is still there, byte for byte as it was
// served, deleted ones still deleted; search, threads, canvases, reactions and memberships keep
// working; a failed migration leaves the directory untouched and one from a newer relay is refused.

#include "test_engine_support.h"

#include "relay/store/sqlite/SqliteEventReader.h"
#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <set>

using namespace enginetest;

namespace {

const QString kFixture = QStringLiteral(BUZZ_TEST_DATA_DIR "/store-v1");
const std::string kOpen = "7c1e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";
const std::string kPrivate = "7c1e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d02";

struct FixtureEvent
{
    std::string community;
    std::string json;
    std::string id;
    bool deleted = false;
};

std::vector<FixtureEvent> expectedEvents()
{
    std::vector<FixtureEvent> events;
    std::ifstream lines(QString(kFixture + "/events.jsonl").toStdString());
    std::string line;
    while (std::getline(lines, line)) {
        const auto row = nlohmann::json::parse(line);
        FixtureEvent event {row.at("community"), row.at("json"), {}, row.at("deleted")};
        event.id = nlohmann::json::parse(event.json).at("id");
        events.push_back(std::move(event));
    }
    return events;
}

Identity fixedIdentity(const char *hex)
{
    Identity who;
    who.key = nostr::SecretKey::parse(hex).value();
    return who;
}

// The fixture's relay.sqlite3 copied into `dir` (the original stays as committed).
bool copyFixture(const QTemporaryDir &dir)
{
    return QFile::copy(kFixture + "/relay.sqlite3", dir.path() + "/relay.sqlite3");
}

std::string sqlText(const QString &dir, const char *sql)
{
    sqlite3 *db = nullptr;
    std::string out;
    if (sqlite3_open_v2((dir + "/relay.sqlite3").toUtf8().constData(), &db, SQLITE_OPEN_READONLY,
                        nullptr)
        == SQLITE_OK) {
        sqlite3_stmt *statement = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK
            && sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0))
            out = reinterpret_cast<const char *>(sqlite3_column_text(statement, 0));
        sqlite3_finalize(statement);
    }
    sqlite3_close_v2(db);
    return out;
}

bool execSql(const QString &dir, const char *sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open((dir + "/relay.sqlite3").toUtf8().constData(), &db) == SQLITE_OK
        && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close_v2(db);
    return ok;
}

} // namespace

class TestStoreMigration : public QObject
{
    Q_OBJECT

    const Identity owner =
        fixedIdentity("0000000000000000000000000000000000000000000000000000000000000011");
    const Identity member =
        fixedIdentity("0000000000000000000000000000000000000000000000000000000000000022");
    const Identity outsider =
        fixedIdentity("0000000000000000000000000000000000000000000000000000000000000033");

private slots:
    void fixtureIsSchemaOne()
    {
        // Only ever copies are opened: SQLite would leave -shm/-wal files next to the original.
        QTemporaryDir dir;
        QVERIFY(copyFixture(dir));
        QCOMPARE(sqlText(dir.path(), "SELECT value FROM relay_meta WHERE key = 'schema_version'"),
                 std::string("1"));
        QCOMPARE(sqlText(dir.path(), "SELECT count(*) FROM events"), std::string("90"));
        QCOMPARE(int(expectedEvents().size()), 90);
    }

    void everyEventSurvivesByteForByte()
    {
        QTemporaryDir dir;
        QVERIFY(copyFixture(dir));
        const qint64 before = QFileInfo(dir.path() + "/relay.sqlite3").size();
        {
            std::string error;
            auto database = store::SqliteStore::open(dir.path().toStdString(), error);
            QVERIFY2(database, error.c_str());
            store::ConnectionLease lease = database->leaseWriterConnection();
            store::SqliteEventReader reader(store::SqliteReadConnection::of(lease));
            for (const FixtureEvent &event : expectedEvents()) {
                const auto found = reader.findById(event.community, event.id);
                QVERIFY2(found, event.json.c_str());
                QCOMPARE(found->stored.json, event.json);
                QCOMPARE(found->stored.community, event.community);
                QCOMPARE(found->deletedAt.has_value(), event.deleted);
                QVERIFY(found->stored.event.verify());
            }
        }
        QCOMPARE(sqlText(dir.path(), "SELECT value FROM relay_meta WHERE key = 'schema_version'"),
                 std::string("4"));
        const qint64 after = QFileInfo(dir.path() + "/relay.sqlite3").size();
        qInfo("relay.sqlite3: %lld bytes before, %lld after", before, after);
        QVERIFY(after < before);
    }

    void theRelayWorksOnTheMigratedStore()
    {
        QTemporaryDir dir;
        QVERIFY(copyFixture(dir));
        EngineHarness h(dir.path().toStdString());
        QVERIFY2(h.engine->startupError().empty(), h.engine->startupError().c_str());

        // Every live event the owner may read is served (all but the p-gated 44100 rows, which
        // need a #p of their own), no deleted one.
        std::set<int> kinds;
        for (const FixtureEvent &event : expectedEvents()) {
            const int kind = nlohmann::json::parse(event.json).at("kind");
            if (kind != 44100)
                kinds.insert(kind);
        }
        const std::string everyKind =
            "[{\"kinds\":" + nlohmann::json(kinds).dump() + ",\"limit\":1000}]";
        std::set<std::string> served;
        for (const auto &stored : h.query(owner, everyKind))
            served.insert(stored.event.id);
        int live = 0;
        for (const FixtureEvent &event : expectedEvents()) {
            if (event.community != "local")
                continue;
            const int kind = nlohmann::json::parse(event.json).at("kind");
            if (event.deleted) {
                QVERIFY2(!served.count(event.id), event.json.c_str());
            } else if (kind != 44100) {
                QVERIFY2(served.count(event.id), event.json.c_str());
                ++live;
            }
        }
        QCOMPARE(int(served.size()), live);
        const auto privateForOutsider =
            h.query(outsider, "[{\"kinds\":[9],\"#h\":[\"" + kPrivate + "\"],\"limit\":100}]");
        QVERIFY(privateForOutsider.empty());
        QVERIFY(!h.query(member, "[{\"kinds\":[9],\"#h\":[\"" + kPrivate + "\"],\"limit\":100}]")
                     .empty());

        // Full-text search was rebuilt over the migrated rows.
        const auto hits = h.query(owner, "[{\"search\":\"zebra\",\"kinds\":[40100]}]");
        QCOMPARE(int(hits.size()), 5);

        // Canvas compare-and-swap continues from the migrated head.
        const auto head = h.canvasHead(owner, kOpen);
        QVERIFY(head);
        const auto stale = owner.sign(40100, h.now + 200,
                                      {{"h", kOpen}, {"expected-revision", "none"}}, "# stale");
        QVERIFY(!h.submit(owner, stale).accepted());
        const auto next =
            owner.sign(40100, h.now + 200, {{"h", kOpen}, {"expected-revision", *head}}, "# next");
        QVERIFY(h.submit(owner, next).accepted());
        QCOMPARE(*h.canvasHead(owner, kOpen), next.id);

        // Thread links: the two replies to message 1, oldest first.
        const auto roots = h.query(
            owner, "[{\"kinds\":[9],\"#h\":[\"" + kOpen + "\"],\"search\":\"a reply in thread\"}]");
        QCOMPARE(int(roots.size()), 1);
        const std::string rootId = roots.front().event.tagValues("e").front();
        const auto replies =
            h.query(owner, "[{\"kinds\":[9],\"#e\":[\"" + rootId + "\"],\"depth_limit\":5}]",
                    ReadPath::BridgeThreadAux);
        QCOMPARE(int(replies.size()), 2);

        // A reaction that exists is still a duplicate; tag filters still find indexed tags.
        const auto reactions = h.query(owner, "[{\"kinds\":[7],\"limit\":10}]");
        QCOMPARE(int(reactions.size()), 2);
        const auto mine = std::find_if(reactions.begin(), reactions.end(), [&](const auto &row) {
            return row.event.pubkey == owner.pubkey();
        });
        QVERIFY(mine != reactions.end());
        const auto again =
            owner.sign(7, h.now + 300, {{"e", *mine->event.tagValue("e")}}, mine->event.content);
        QCOMPARE(int(h.submit(owner, again).status), int(IngestResult::Status::RejectedDuplicate));
        QCOMPARE(int(h.query(owner, "[{\"kinds\":[1],\"#t\":[\"global\"],\"limit\":100}]").size()),
                 10);
        QCOMPARE(int(h.query(owner, "[{\"kinds\":[9],\"#t\":[\"topic0\"],\"limit\":100}]").size()),
                 4);

        // The other community's rows stay in it.
        QCOMPARE(
            int(h.query(owner, "[{\"kinds\":[1],\"limit\":100}]", ReadPath::BridgeQuery, "other")
                    .size()),
            1);
    }

    void aFailedMigrationLeavesTheDirectoryUntouched()
    {
        QTemporaryDir dir;
        QVERIFY(copyFixture(dir));
        // A row no migration can convert (an id that is not lower-case hex).
        QVERIFY(execSql(dir.path(), "UPDATE events SET id = upper(id) WHERE rowid = 5"));
        const std::string count = sqlText(dir.path(), "SELECT count(*) FROM events");
        std::string error;
        QVERIFY(!store::SqliteStore::open(dir.path().toStdString(), error));
        QVERIFY2(error.find("schema migration from version 1 failed") != std::string::npos,
                 error.c_str());
        QCOMPARE(sqlText(dir.path(), "SELECT value FROM relay_meta WHERE key = 'schema_version'"),
                 std::string("1"));
        QCOMPARE(sqlText(dir.path(), "SELECT count(*) FROM events"), count);
        QVERIFY(!sqlText(dir.path(), "SELECT json FROM events LIMIT 1").empty());
    }

    void aNewerSchemaIsRefused()
    {
        QTemporaryDir dir;
        {
            std::string error;
            QVERIFY(store::SqliteStore::open(dir.path().toStdString(), error));
        }
        QVERIFY(
            execSql(dir.path(), "UPDATE relay_meta SET value = '99' WHERE key = 'schema_version'"));
        std::string error;
        QVERIFY(!store::SqliteStore::open(dir.path().toStdString(), error));
        QVERIFY2(error.find("schema version 99") != std::string::npos, error.c_str());
        QCOMPARE(sqlText(dir.path(), "SELECT value FROM relay_meta WHERE key = 'schema_version'"),
                 std::string("99"));
    }
};

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "test_store_migration.moc"
