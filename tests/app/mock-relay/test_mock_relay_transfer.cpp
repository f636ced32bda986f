// buzz-mock-relay export / import (relay/README.md "Export and import") on an engine of either
// store: an export imported into a fresh store exports the same bytes, the imported relay serves
// the canvas head, its history, the channel's membership and search as the original did, and a
// tampered line is refused by its line number while the others are stored.

#include "app/mock-relay/EventImport.h"
#include "test_engine_support.h"

#include <QTest>

#include <sstream>

using namespace enginetest;

class TestMockRelayTransfer : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> source;
    Identity alice; // owner of the private channel
    Identity bob; // member
    Identity carol; // never a member
    std::vector<std::string> revisions; // the canvas, oldest first
    std::string messageId;

    static std::vector<std::string> exportLines(RelayEngine &engine)
    {
        std::vector<std::string> lines;
        std::string error;
        const bool ok = engine.exportEvents(
            "local", [&](const std::string &json) { lines.push_back(json); }, error);
        if (!ok)
            qWarning() << "export failed:" << error.c_str();
        return lines;
    }

    static std::string joined(const std::vector<std::string> &lines)
    {
        std::string text;
        for (const auto &line : lines)
            text += line + "\n";
        return text;
    }

    // A fresh store whose clock is ten days after the source's: the import must not judge old
    // events by the time it runs.
    static std::unique_ptr<EngineHarness> freshTarget()
    {
        auto target = std::make_unique<EngineHarness>();
        target->now = EngineHarness::kStart + 10 * 86400;
        return target;
    }

    static EventImport::Report importInto(EngineHarness &target, const std::string &text,
                                          bool stopOnError = false)
    {
        std::istringstream in(text);
        EventImport::Options options;
        options.stopOnError = stopOnError;
        options.threads = 3;
        options.chunkLines = 5; // several chunks, each verified on several threads
        return EventImport(*target.engine, options).run(in);
    }

    void submitOk(const Identity &who, const nostr::Event &event)
    {
        const auto result = source->submit(who, event);
        if (result.status != IngestResult::Status::Stored)
            qWarning() << "submit failed:" << event.kind << result.message.c_str();
    }

    std::vector<std::string> history(EngineHarness &harness, const Identity &who)
    {
        std::vector<std::string> ids;
        for (const auto &stored : harness.query(
                 who, "[{\"kinds\":[40100],\"#h\":[\"" + std::string(kChannelA) + "\"]}]"))
            ids.push_back(stored.event.id);
        return ids;
    }

private slots:
    void init()
    {
        source = std::make_unique<EngineHarness>();
        revisions.clear();
        QVERIFY(!source->createChannel(alice, kChannelA, "private").empty());
        submitOk(alice, alice.sign(9000, ++source->now, {{"h", kChannelA}, {"p", bob.pubkey()}}));
        std::optional<std::string> expected = "none";
        for (int i = 1; i <= 3; ++i) {
            const auto revision = alice.sign(40100, ++source->now,
                                             {{"h", kChannelA}, {"expected-revision", *expected}},
                                             "# v" + std::to_string(i));
            submitOk(alice, revision);
            revisions.push_back(revision.id);
            expected = revision.id;
        }
        const auto message = bob.sign(9, source->now + 5, {{"h", kChannelA}}, "hello");
        messageId = message.id;
        // Signed before its target by the clock: an export in (created_at, id) order puts it
        // first, and the import must still store it.
        const auto reaction =
            alice.sign(7, source->now + 3, {{"h", kChannelA}, {"e", messageId}}, "+");
        submitOk(bob, message);
        submitOk(alice, reaction);
        const auto note = bob.sign(9, source->now + 6, {{"h", kChannelA}}, "typo");
        submitOk(bob, note);
        submitOk(bob, bob.sign(5, source->now + 7, {{"e", note.id}, {"h", kChannelA}}));
        source->now += 8;
    }

    void exportOfImportIsIdentical()
    {
        const auto lines = exportLines(*source->engine);
        QVERIFY(lines.size() >= 10); // the relay-signed discovery and notices included
        auto target = freshTarget();
        const auto report = importInto(*target, joined(lines));
        for (const auto &refusal : report.refused)
            qWarning() << refusal.line << refusal.message.c_str();
        QVERIFY(report.refused.empty());
        QCOMPARE(report.lines, lines.size());
        QCOMPARE(report.imported, lines.size());
        QCOMPARE(exportLines(*target->engine), lines);

        // Again into the same store: everything is already there, nothing changes.
        const auto again = importInto(*target, joined(lines));
        QCOMPARE(again.duplicates, lines.size());
        QCOMPARE(again.imported, std::size_t(0));
        QCOMPARE(exportLines(*target->engine), lines);
    }

    void importedRelayServesCanvasAndChannel()
    {
        // Read from the source before the target exists: on PostgreSQL both use this process's
        // one test schema, emptied for the target (PgTestCluster::freshStore).
        const auto lines = exportLines(*source->engine);
        const auto originalHistory = history(*source, bob);
        QCOMPARE(originalHistory.size(), std::size_t(3));
        auto target = freshTarget();
        QVERIFY(importInto(*target, joined(lines)).refused.empty());
        QCOMPARE(target->canvasHead(alice, kChannelA),
                 std::optional<std::string>(revisions.back()));
        QCOMPARE(history(*target, bob), originalHistory);
        // Membership came with the rules: the member reads, the stranger does not.
        QVERIFY(target->engine->canRead("local", kChannelA, bob.pubkey()));
        QVERIFY(!target->engine->canRead("local", kChannelA, carol.pubkey()));
        QVERIFY(history(*target, carol).empty());
        // The deleted note stays deleted; the reaction counts once.
        const auto messages =
            target->query(bob, "[{\"kinds\":[9],\"#h\":[\"" + std::string(kChannelA) + "\"]}]");
        QCOMPARE(messages.size(), std::size_t(1));
        QCOMPARE(messages.front().event.id, messageId);
        // The full-text index came with them: the message is found by a word of it.
        const auto found = target->query(bob, "[{\"kinds\":[9],\"search\":\"hello\"}]");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().event.id, messageId);
        // The canvas goes on from the imported head, with the CAS answers of the original.
        const auto next =
            alice.sign(40100, target->now,
                       {{"h", kChannelA}, {"expected-revision", revisions.back()}}, "# v4");
        QCOMPARE(int(target->submit(alice, next).status), int(IngestResult::Status::Stored));
        const auto stale =
            alice.sign(40100, target->now,
                       {{"h", kChannelA}, {"expected-revision", revisions.front()}}, "# stale");
        QCOMPARE(int(target->submit(alice, stale).status), int(IngestResult::Status::Conflict));
    }

    void tamperedLineIsRefusedByNumber()
    {
        auto lines = exportLines(*source->engine);
        // The last canvas revision's signature, one hex digit changed.
        std::size_t tampered = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].find(revisions.back()) != std::string::npos
                && lines[i].find("\"kind\":40100") != std::string::npos)
                tampered = i;
        }
        QVERIFY(tampered > 0);
        const auto sig = lines[tampered].find("\"sig\":\"") + 7;
        lines[tampered][sig] = lines[tampered][sig] == '0' ? '1' : '0';
        lines.insert(lines.begin() + 1, "not json"); // line 2

        auto target = freshTarget();
        const auto report = importInto(*target, joined(lines));
        QCOMPARE(report.refused.size(), std::size_t(2));
        QCOMPARE(report.refused[0].line, std::size_t(2));
        QVERIFY(report.refused[0].message.rfind("invalid: ", 0) == 0);
        QCOMPARE(report.refused[1].line, tampered + 2); // 1-based, after the inserted line
        QCOMPARE(report.refused[1].message, std::string("invalid: invalid schnorr signature"));
        QCOMPARE(report.imported, lines.size() - 2);
        // The refused revision is not the head: the one before it is.
        QCOMPARE(target->canvasHead(alice, kChannelA),
                 std::optional<std::string>(revisions[revisions.size() - 2]));

        // --stop-on-error: nothing after the first bad line.
        auto stopped = freshTarget();
        const auto partial = importInto(*stopped, joined(lines), true);
        QVERIFY(partial.stopped);
        QCOMPARE(partial.refused.size(), std::size_t(1));
        QCOMPARE(partial.refused[0].line, std::size_t(2));
        QCOMPARE(partial.imported, std::size_t(1));
        QCOMPARE(exportLines(*stopped->engine), std::vector<std::string> {lines.front()});
    }
};

QTEST_GUILESS_MAIN(TestMockRelayTransfer)
#include "test_mock_relay_transfer.moc"
