// docs/buzz-protocol.md §Ingest order at the engine level: the ordered checks, their exact messages
// and HTTP classes, channel administration side effects, and the commit log written with each
// change.

#include "test_engine_support.h"

#include "relay/store/sqlite/SearchIndexer.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <mutex>
#include <set>

#include <sqlite3.h>

using namespace enginetest;
using Status = IngestResult::Status;

class TestEngineIngest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> h;
    Identity alice;
    Identity bob;

    void expect(const IngestResult &result, Status status, const std::string &message)
    {
        if (result.status != status || result.message != message)
            qWarning() << "got" << int(result.status) << result.message.c_str();
        QCOMPARE(int(result.status), int(status));
        QCOMPARE(result.message, message);
    }

private slots:
    void init()
    {
        h = std::make_unique<EngineHarness>();
        QVERIFY(!h->createChannel(alice, kChannelA).empty());
    }

    void earlyKindGates()
    {
        expect(h->submit(alice, alice.sign(22242, h->now, {})), Status::Rejected,
               "invalid: AUTH events cannot be submitted");
        expect(h->submit(alice, alice.sign(44100, h->now, {})), Status::Rejected,
               "invalid: membership notifications are relay-signed only");
        expect(h->submit(alice, alice.sign(1059, h->now, {})), Status::Rejected,
               "invalid: kind 1059 is only accepted via WebSocket");
        expect(h->submit(alice, alice.sign(40901, h->now, {})), Status::Rejected,
               "restricted: relay-only kind");
        // Create-invite is absent from the upstream allow-list (docs/buzz-protocol.md §Kinds).
        expect(h->submit(alice, alice.sign(9009, h->now, {})), Status::Rejected,
               "restricted: unknown event kind");
        expect(h->submit(alice, alice.sign(39000, h->now, {{"d", kChannelA}})), Status::Rejected,
               "restricted: unknown event kind");
    }

    void signatureAndIdAreVerified()
    {
        auto event = alice.sign(1, h->now, {}, "hello");
        event.content = "tampered";
        const auto result = h->submit(alice, event);
        QCOMPARE(int(result.status), int(Status::Rejected));
        QVERIFY(result.message.rfind("invalid: invalid event id: computed ", 0) == 0);
        auto badSig = alice.sign(1, h->now, {}, "hello");
        badSig.sig[0] = badSig.sig[0] == 'a' ? 'b' : 'a';
        expect(h->submit(alice, badSig), Status::Rejected, "invalid: invalid schnorr signature");
    }

    void timestampWindowIs900Seconds()
    {
        expect(h->submit(alice, alice.sign(1, h->now - 901, {})), Status::Rejected,
               "invalid: event timestamp too far from server time");
        expect(h->submit(alice, alice.sign(1, h->now + 901, {})), Status::Rejected,
               "invalid: event timestamp too far from server time");
        expect(h->submit(alice, alice.sign(1, h->now - 900, {}, "edge")), Status::Stored, "");
    }

    void contentCap()
    {
        const std::string big(262145, 'x');
        expect(h->submit(alice, alice.sign(1, h->now, {}, big)), Status::Rejected,
               "invalid: content exceeds maximum size of 262144 bytes (got 262145)");
        expect(h->submit(alice, alice.sign(1, h->now, {}, std::string(262144, 'x'))),
               Status::Stored, "");
    }

    void pubkeyMustMatchAuthenticatedIdentity()
    {
        const auto result = h->engine->ingest(alice.sign(1, h->now, {}), bob.http());
        expect(result, Status::Forbidden,
               "invalid: event pubkey does not match authenticated identity");
        QCOMPARE(result.httpStatus(), 403);
    }

    void channelScopedKindsNeedHTag()
    {
        expect(h->submit(alice, alice.sign(9, h->now, {}, "hi")), Status::Rejected,
               "invalid: channel-scoped events must include an h tag");
        expect(h->submit(alice, alice.sign(40100, h->now, {{"h", "not-a-uuid"}}, "x")),
               Status::Rejected, "invalid: channel-scoped events must include an h tag");
    }

    void privateChannelNeedsMembership()
    {
        QVERIFY(!h->createChannel(alice, kChannelB, "private").empty());
        expect(h->submit(bob, bob.sign(9, h->now, {{"h", kChannelB}}, "hi")), Status::Rejected,
               "restricted: not a channel member");
        expect(h->submit(bob, bob.sign(9021, h->now, {{"h", kChannelB}})), Status::Rejected,
               "restricted: channel is private");
        expect(h->submit(alice, alice.sign(9000, h->now, {{"h", kChannelB}, {"p", bob.pubkey()}})),
               Status::Stored, "");
        expect(h->submit(bob, bob.sign(9, h->now, {{"h", kChannelB}}, "hi")), Status::Stored, "");
        QVERIFY(h->engine->canRead("local", kChannelB, bob.pubkey()));
        // The relay tells bob (and only bob) that he was added.
        const auto added = h->query(bob, "[{\"kinds\":[44100],\"#p\":[\"" + bob.pubkey() + "\"]}]");
        QCOMPARE(int(added.size()), 1);
        QVERIFY(added.front().event.content.find(kChannelB) != std::string::npos);
        QCOMPARE(added.front().event.pubkey, h->engine->relayPublicKeyHex());
        expect(
            h->submit(alice, alice.sign(9001, h->now + 1, {{"h", kChannelB}, {"p", bob.pubkey()}})),
            Status::Stored, "");
        QVERIFY(!h->engine->canRead("local", kChannelB, bob.pubkey()));
    }

    void openChannelAcceptsNonMembers()
    {
        expect(h->submit(bob, bob.sign(9, h->now, {{"h", kChannelA}}, "hi")), Status::Stored, "");
        expect(h->submit(bob, bob.sign(9021, h->now, {{"h", kChannelA}})), Status::Stored, "");
    }

    void channelCreateRules()
    {
        const char *uuid = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d03";
        expect(h->submit(alice, alice.sign(9007, h->now, {{"h", uuid}, {"name", "  "}})),
               Status::Rejected, "invalid: channel name is required");
        expect(h->submit(alice,
                         alice.sign(9007, h->now,
                                    {{"h", uuid}, {"name", "x"}, {"visibility", "secret"}})),
               Status::Rejected, "invalid: invalid visibility: secret");
        const auto creation = alice.sign(9007, h->now, {{"h", uuid}, {"name", "x"}});
        expect(h->submit(alice, creation), Status::Stored, "");
        // Byte-identical replay of the creation event: a success, not a failure.
        expect(h->submit(alice, creation), Status::Duplicate, "duplicate:");
        const auto other = bob.sign(9007, h->now, {{"h", uuid}, {"name", "y"}});
        const auto result = h->submit(bob, other);
        expect(result, Status::RejectedDuplicate, "duplicate: channel already exists");
        QVERIFY(!result.accepted());
        QCOMPARE(result.httpStatus(), 200);
    }

    void channelCreateEmitsRelaySignedEvents()
    {
        std::vector<StoredEvent> committed;
        std::mutex mutex;
        h->engine->setCommitListener([&](std::shared_ptr<const StoredEvent> stored) {
            std::lock_guard guard(mutex);
            committed.push_back(*stored);
        });
        const char *uuid = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d04";
        QVERIFY(!h->createChannel(alice, uuid).empty());
        std::vector<int> kinds;
        for (const auto &stored : committed) {
            kinds.push_back(stored.event.kind);
            if (stored.event.kind != 9007) {
                QCOMPARE(stored.event.pubkey, h->engine->relayPublicKeyHex());
                QVERIFY(stored.event.verify());
            }
            if (stored.event.kind == 44100)
                QCOMPARE(stored.channel, std::optional<std::string>()); // global, p-gated
            else
                QCOMPARE(stored.channel, std::optional<std::string>(uuid));
        }
        QCOMPARE(kinds, (std::vector<int> {9007, 40099, 39000, 39001, 39002, 44100}));
        // Discovery is readable the desktop way.
        const auto members =
            h->query(bob, "[{\"kinds\":[39002],\"#p\":[\"" + alice.pubkey() + "\"]}]");
        QCOMPARE(int(members.size()), 2); // both channels
    }

    void discoveryEventsReplaceTheirPredecessor()
    {
        QVERIFY(h->submit(bob, bob.sign(9021, h->now, {{"h", kChannelA}})).accepted());
        const auto members =
            h->query(alice, "[{\"kinds\":[39002],\"#d\":[\"" + std::string(kChannelA) + "\"]}]");
        QCOMPARE(int(members.size()), 1);
        QCOMPARE(members.front().event.tagCount("p"), 2);
    }

    void metadataEditAndArchive()
    {
        expect(h->submit(bob, bob.sign(9002, h->now, {{"h", kChannelA}, {"name", "hijack"}})),
               Status::Rejected, "invalid: actor not authorized");
        expect(h->submit(alice, alice.sign(9002, h->now, {{"h", kChannelA}, {"archived", "true"}})),
               Status::Stored, "");
        expect(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelA}}, "hi")), Status::Rejected,
               "invalid: channel is archived");
        expect(h->submit(alice, alice.sign(40100, h->now, {{"h", kChannelA}}, "# x")),
               Status::Rejected, "invalid: channel is archived");
        expect(h->submit(alice,
                         alice.sign(9002, h->now + 1, {{"h", kChannelA}, {"archived", "false"}})),
               Status::Stored, "");
        expect(h->submit(alice, alice.sign(9, h->now + 1, {{"h", kChannelA}}, "back")),
               Status::Stored, "");
        const auto metadata =
            h->query(alice, "[{\"kinds\":[39000],\"#d\":[\"" + std::string(kChannelA) + "\"]}]");
        QCOMPARE(int(metadata.size()), 1);
        QVERIFY(!metadata.front().event.tagValue("archived"));
    }

    void lastOwnerCannotLeave()
    {
        expect(h->submit(alice, alice.sign(9022, h->now, {{"h", kChannelA}})), Status::Rejected,
               "invalid: cannot remove the last owner");
    }

    void unknownChannel()
    {
        expect(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelB}}, "hi")), Status::Rejected,
               "restricted: not a channel member");
        expect(h->submit(alice, alice.sign(9021, h->now, {{"h", kChannelB}})), Status::Rejected,
               "invalid: channel not found");
        expect(h->submit(alice, alice.sign(9021, h->now, {})), Status::Rejected,
               "invalid: join request must include an h tag");
    }

    void profilesAreReplaceable()
    {
        expect(h->submit(alice, alice.sign(0, h->now, {}, "not json")), Status::Rejected,
               "invalid: kind:0 content must be valid JSON");
        const auto v1 = alice.sign(0, h->now, {}, "{\"name\":\"a1\"}");
        expect(h->submit(alice, v1), Status::Stored, "");
        expect(h->submit(alice, alice.sign(0, h->now - 5, {}, "{\"name\":\"old\"}")),
               Status::Duplicate, "duplicate:");
        const auto v2 = alice.sign(0, h->now + 1, {}, "{\"name\":\"a2\"}");
        expect(h->submit(alice, v2), Status::Stored, "");
        const auto profiles =
            h->query(bob, "[{\"kinds\":[0],\"authors\":[\"" + alice.pubkey() + "\"]}]");
        QCOMPARE(int(profiles.size()), 1);
        QCOMPARE(profiles.front().event.id, v2.id);
    }

    void reactions()
    {
        const auto message = alice.sign(9, h->now, {{"h", kChannelA}}, "hi");
        QVERIFY(h->submit(alice, message).accepted());
        expect(h->submit(bob, bob.sign(7, h->now, {}, "+")), Status::Rejected,
               "invalid: reaction must reference a target event via e tag");
        expect(h->submit(bob, bob.sign(7, h->now, {{"e", std::string(64, 'c')}}, "+")),
               Status::Rejected, "invalid: reaction target event not found");
        const auto reaction = bob.sign(7, h->now, {{"e", message.id}}, "+");
        expect(h->submit(bob, reaction), Status::Stored, "");
        expect(h->submit(bob, bob.sign(7, h->now + 1, {{"e", message.id}}, "+")),
               Status::RejectedDuplicate, "duplicate: reaction already exists");
        // The reaction is scoped to the target's channel although it carries no h tag.
        const auto found =
            h->query(alice, "[{\"kinds\":[7],\"#h\":[\"" + std::string(kChannelA) + "\"]}]");
        QCOMPARE(int(found.size()), 1);
        // Removing it (kind 5 by its author) allows reacting again.
        expect(h->submit(bob, bob.sign(5, h->now + 2, {{"e", reaction.id}})), Status::Stored, "");
        expect(h->submit(bob, bob.sign(7, h->now + 3, {{"e", message.id}}, "+")), Status::Stored,
               "");
    }

    void deletions()
    {
        const auto message = alice.sign(9, h->now, {{"h", kChannelA}}, "hi");
        QVERIFY(h->submit(alice, message).accepted());
        expect(h->submit(bob, bob.sign(5, h->now, {{"e", message.id}})), Status::Rejected,
               "invalid: must be event author");
        expect(h->submit(bob, bob.sign(5, h->now, {{"e", std::string(64, 'd')}})), Status::Rejected,
               "invalid: target event not found");
        expect(h->submit(alice, alice.sign(5, h->now, {{"e", message.id}, {"e", message.id}})),
               Status::Rejected,
               "invalid: deletion events must reference exactly one target via e or a tag (got "
               "e=2, a=0)");
        expect(h->submit(bob, bob.sign(9005, h->now, {{"h", kChannelA}, {"e", message.id}})),
               Status::Rejected, "invalid: actor not authorized");
        expect(h->submit(alice, alice.sign(5, h->now, {{"e", message.id}, {"h", kChannelA}})),
               Status::Stored, "");
        QVERIFY(h->query(alice, "[{\"ids\":[\"" + message.id + "\"]}]").empty());
    }

    void adminDeleteEmitsSystemMessage()
    {
        const auto message = bob.sign(9, h->now, {{"h", kChannelA}}, "spam");
        QVERIFY(h->submit(bob, message).accepted());
        expect(h->submit(alice, alice.sign(9005, h->now, {{"h", kChannelA}, {"e", message.id}})),
               Status::Stored, "");
        QVERIFY(h->query(alice, "[{\"ids\":[\"" + message.id + "\"]}]").empty());
        const auto system =
            h->query(alice, "[{\"kinds\":[40099],\"#h\":[\"" + std::string(kChannelA) + "\"]}]");
        QVERIFY(std::any_of(system.begin(), system.end(), [&](const StoredEvent &s) {
            return s.event.content.find("message_deleted") != std::string::npos
                && s.event.content.find(message.id) != std::string::npos;
        }));
    }

    void editsAndThreads()
    {
        const auto root = alice.sign(9, h->now, {{"h", kChannelA}}, "root");
        QVERIFY(h->submit(alice, root).accepted());
        expect(h->submit(bob, bob.sign(40003, h->now, {{"h", kChannelA}, {"e", root.id}}, "edit")),
               Status::Rejected, "invalid: must be event author to edit");
        expect(h->submit(alice,
                         alice.sign(40003, h->now, {{"h", kChannelA}, {"e", std::string(64, 'e')}},
                                    "edit")),
               Status::Rejected, "invalid: edit target event not found");
        expect(
            h->submit(alice, alice.sign(40003, h->now, {{"h", kChannelA}, {"e", root.id}}, "edit")),
            Status::Stored, "");
        expect(
            h->submit(bob,
                      bob.sign(9, h->now,
                               {{"h", kChannelA}, {"e", std::string(64, 'f'), "", "reply"}}, "r")),
            Status::Rejected, "invalid: reply parent not found");
        const auto reply =
            bob.sign(9, h->now + 1, {{"h", kChannelA}, {"e", root.id, "", "reply"}}, "reply");
        expect(h->submit(bob, reply), Status::Stored, "");
        const auto wrongRoot =
            bob.sign(9, h->now + 2,
                     {{"h", kChannelA}, {"e", reply.id, "", "root"}, {"e", reply.id, "", "reply"}},
                     "nested");
        expect(h->submit(bob, wrongRoot), Status::Rejected,
               "invalid: root tag does not match thread ancestry");
        const auto nested = bob.sign(
            9, h->now + 2,
            {{"h", kChannelA}, {"e", root.id, "", "root"}, {"e", reply.id, "", "reply"}}, "nested");
        expect(h->submit(bob, nested), Status::Stored, "");
        const auto thread =
            h->query(alice, "[{\"#e\":[\"" + root.id + "\"],\"depth_limit\":1,\"kinds\":[9]}]",
                     ReadPath::BridgeThreadAux);
        QCOMPARE(int(thread.size()), 1);
        const auto deep =
            h->query(alice, "[{\"#e\":[\"" + root.id + "\"],\"depth_limit\":5,\"kinds\":[9]}]",
                     ReadPath::BridgeThreadAux);
        QCOMPARE(int(deep.size()), 2);
        QCOMPARE(deep.front().event.id, reply.id); // oldest first
    }

    void duplicateIdIsAcceptedDuplicate()
    {
        const auto message = alice.sign(9, h->now, {{"h", kChannelA}}, "once");
        expect(h->submit(alice, message), Status::Stored, "");
        expect(h->submit(alice, message), Status::Duplicate, "duplicate:");
    }

    void commitLogRecordsEveryChangeAndNothingElse()
    {
        if (buzz::relay::test::PgTestCluster::selected())
            QSKIP("SQLite's commit log (on PostgreSQL the standby replays the WAL)");
        const QString dir = QDir::tempPath() + "/buzz-engine-ingest-"
            + QString::number(QCoreApplication::applicationPid());
        QDir(dir).removeRecursively();
        std::string firstId;
        {
            EngineHarness file(dir.toStdString());
            QVERIFY(file.engine->startupError().empty());
            QVERIFY(!file.createChannel(alice, kChannelA).empty());
            const auto message = alice.sign(9, file.now, {{"h", kChannelA}}, "durable");
            firstId = message.id;
            QVERIFY(file.submit(alice, message).accepted());
            QVERIFY(!file.submit(bob, bob.sign(9, file.now, {}, "rejected")).accepted());
            QVERIFY(file.engine->metricsText().find("buzz_commit_log_lsn 2") != std::string::npos);
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open((dir + "/relay.sqlite3").toUtf8().constData(), &db), SQLITE_OK);
        sqlite3_stmt *statement = nullptr;
        sqlite3_prepare_v2(db, "SELECT lsn, change FROM commit_log ORDER BY lsn", -1, &statement,
                           nullptr);
        std::vector<std::string> changes;
        while (sqlite3_step(statement) == SQLITE_ROW)
            changes.emplace_back(reinterpret_cast<const char *>(sqlite3_column_text(statement, 1)));
        sqlite3_finalize(statement);
        sqlite3_close(db);
        QCOMPARE(int(changes.size()), 2);
        QVERIFY(changes[0].find("\"op\":\"channel\"") != std::string::npos);
        QVERIFY(changes[1].find(firstId) != std::string::npos);
        {
            EngineHarness reopened(dir.toStdString());
            QCOMPARE(int(reopened.query(alice, "[{\"ids\":[\"" + firstId + "\"]}]").size()), 1);
        }
        QDir(dir).removeRecursively();
    }

    void searchIndexFromAnOlderVersionIsRebuiltOnOpen()
    {
        if (buzz::relay::test::PgTestCluster::selected())
            QSKIP("SQLite's FTS5 index version (PostgreSQL keeps a generated tsvector)");
        // A data directory written by index version 1 (a row per trigger, no queue): opening it
        // rebuilds the index once, so old rows stay searchable and new ones are indexed too.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto old = alice.sign(9, h->now, {{"h", kChannelA}}, "zebracrossing before");
        {
            EngineHarness file(dir.path().toStdString());
            QVERIFY(!file.createChannel(alice, kChannelA).empty());
            QVERIFY(file.submit(alice, old).accepted());
        }
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open((dir.path() + "/relay.sqlite3").toUtf8().constData(), &db),
                     SQLITE_OK);
            QCOMPARE(sqlite3_exec(db,
                                  "DELETE FROM search_fts; UPDATE relay_meta SET value = '1' "
                                  "WHERE key = 'search_index_version';",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        EngineHarness reopened(dir.path().toStdString());
        const auto fresh = alice.sign(9, reopened.now, {{"h", kChannelA}}, "zebracrossing after");
        QVERIFY(reopened.submit(alice, fresh).accepted());
        const auto hits = reopened.query(alice, "[{\"search\":\"zebracrossing\",\"kinds\":[9]}]");
        std::set<std::string> ids;
        for (const auto &hit : hits)
            ids.insert(hit.event.id);
        QCOMPARE(ids, (std::set<std::string> {old.id, fresh.id}));
    }

    void searchFindsEveryCommittedRowWhileTheWriterIndexesInBatches()
    {
        if (buzz::relay::test::PgTestCluster::selected())
            QSKIP("SQLite's batched FTS5 queue (PostgreSQL indexes each insert)");
        // The writer indexes searchable rows in batches; a search on the writer must still find
        // every row that was acknowledged, also after a restart with rows still queued.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.path().toStdString() + "/relay.sqlite3";
        const auto queued = [&] {
            sqlite3 *db = nullptr;
            sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
            sqlite3_stmt *count = nullptr;
            sqlite3_prepare_v2(db, "SELECT count(*) FROM search_pending", -1, &count, nullptr);
            const int rows = sqlite3_step(count) == SQLITE_ROW ? sqlite3_column_int(count, 0) : -1;
            sqlite3_finalize(count);
            sqlite3_close(db);
            return rows;
        };
        const auto found = [](EngineHarness &relay, const Identity &who, const char *word) {
            return relay
                .query(who,
                       std::string("[{\"search\":\"") + word + "\",\"kinds\":[9],\"limit\":1000}]")
                .size();
        };
        {
            EngineHarness file(dir.path().toStdString());
            QVERIFY(!file.createChannel(alice, kChannelA).empty());
            for (int i = 0; i < 10; ++i)
                QVERIFY(file.submit(alice,
                                    alice.sign(9, file.now, {{"h", kChannelA}},
                                               "quokka " + std::to_string(i)))
                            .accepted());
            QCOMPARE(queued(), 10); // deferred: a batch is not full yet
            QCOMPARE(found(file, alice, "quokka"), std::size_t(10));
            QCOMPARE(queued(), 0); // the search indexed them first

            // A full batch is indexed by the write that fills it.
            const int batch = int(store::SearchIndexer::kBatchRows);
            for (int i = 0; i < batch; ++i)
                QVERIFY(file.submit(alice,
                                    alice.sign(9, file.now, {{"h", kChannelA}},
                                               "wombat " + std::to_string(i)))
                            .accepted());
            QVERIFY(queued() < batch);
            // So is a batch whose oldest row has waited long enough.
            QVERIFY(file.submit(alice, alice.sign(9, file.now, {{"h", kChannelA}}, "numbat one"))
                        .accepted());
            QVERIFY(queued() > 0);
            file.now += (store::SearchIndexer::kBatchMs + 999) / 1000;
            QVERIFY(file.submit(alice, alice.sign(9, file.now, {{"h", kChannelA}}, "numbat two"))
                        .accepted());
            QCOMPARE(queued(), 0);

            for (int i = 0; i < 3; ++i)
                QVERIFY(file.submit(alice,
                                    alice.sign(9, file.now, {{"h", kChannelA}},
                                               "bilby " + std::to_string(i)))
                            .accepted());
            QCOMPARE(queued(), 3); // still queued when this relay stops
        }
        EngineHarness reopened(dir.path().toStdString());
        QCOMPARE(found(reopened, alice, "bilby"), std::size_t(3));
        QCOMPARE(found(reopened, alice, "wombat"), std::size_t(store::SearchIndexer::kBatchRows));
        QCOMPARE(found(reopened, alice, "numbat"), std::size_t(2));
    }

    void metricsCountOutcomes()
    {
        h->submit(alice, alice.sign(22242, h->now, {}));
        const auto text = h->engine->metricsText();
        QVERIFY(text.find("buzz_ingest_total{result=\"stored\"} 1") != std::string::npos);
        QVERIFY(text.find("buzz_ingest_total{result=\"rejected\"} 1") != std::string::npos);
        QVERIFY(text.find("# TYPE buzz_query_total counter") != std::string::npos);
    }

    void seedDemoCreatesCanvasesWithHistory()
    {
        h->engine->seedDemo("demo");
        const auto channels =
            h->query(alice, "[{\"kinds\":[39000]}]", ReadPath::BridgeQuery, "demo");
        QCOMPARE(int(channels.size()), 3);
        const auto canvases =
            h->query(alice, "[{\"kinds\":[40100]}]", ReadPath::BridgeQuery, "demo");
        QVERIFY(canvases.size() >= 7);
        h->engine->seedDemo("demo"); // idempotent
        QCOMPARE(
            int(h->query(alice, "[{\"kinds\":[40100]}]", ReadPath::BridgeQuery, "demo").size()),
            int(canvases.size()));
    }
};

QTEST_GUILESS_MAIN(TestEngineIngest)
#include "test_ingest_pipeline.moc"
