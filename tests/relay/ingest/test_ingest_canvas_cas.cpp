// Canvas compare-and-swap at the engine level: every row of docs/buzz-protocol.md §Canvas CAS.

#include "test_engine_support.h"

#include <QTest>

#include <thread>

using namespace enginetest;

class TestEngineCanvasCas : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> h;
    Identity alice;
    Identity bob;

    nostr::Event canvas(const Identity &who, std::int64_t createdAt,
                        const std::optional<std::string> &expected, const std::string &content)
    {
        nostr::Tags tags {{"h", kChannelA}};
        if (expected)
            tags.push_back({"expected-revision", *expected});
        return who.sign(40100, createdAt, std::move(tags), content);
    }

    // A canvas event signed at `createdAt` whose id sorts below (or above) `other`.
    nostr::Event canvasWithIdOrder(const Identity &who, std::int64_t createdAt,
                                   const std::string &expected, const std::string &other,
                                   bool below)
    {
        for (int attempt = 0;; ++attempt) {
            auto event = canvas(who, createdAt, expected, "tie " + std::to_string(attempt));
            if ((event.id < other) == below)
                return event;
        }
    }

    std::string save(const Identity &who, std::int64_t createdAt,
                     const std::optional<std::string> &expected, const std::string &content)
    {
        const auto event = canvas(who, createdAt, expected, content);
        const auto result = h->submit(who, event);
        if (result.status != IngestResult::Status::Stored)
            qWarning() << "save failed:" << result.message.c_str();
        return event.id;
    }

private slots:
    void init()
    {
        h = std::make_unique<EngineHarness>();
        QVERIFY(!h->createChannel(alice, kChannelA).empty());
    }

    void firstSaveWithNoneIsStored()
    {
        const auto event = canvas(alice, h->now, "none", "# v1");
        const auto result = h->submit(alice, event);
        QCOMPARE(int(result.status), int(IngestResult::Status::Stored));
        QCOMPARE(result.httpStatus(), 200);
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(event.id));
    }

    void noneOnExistingCanvasConflicts()
    {
        save(alice, h->now, "none", "# v1");
        const auto result = h->submit(bob, canvas(bob, h->now + 1, "none", "# other"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Conflict));
        QCOMPARE(result.message, std::string("conflict: canvas changed since it was loaded"));
        QCOMPARE(result.httpStatus(), 409);
    }

    void staleExpectedHeadConflicts()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        save(alice, h->now + 1, v1, "# v2");
        const auto result = h->submit(bob, canvas(bob, h->now + 2, v1, "# from v1"));
        QCOMPARE(result.message, std::string("conflict: canvas changed since it was loaded"));
    }

    void expectedRevisionWithoutHeadIsMissing()
    {
        const std::string unknown(64, 'a');
        const auto result = h->submit(alice, canvas(alice, h->now, unknown, "# v1"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Conflict));
        QCOMPARE(result.message, std::string("conflict: canvas revision does not exist"));
    }

    void olderCandidateDoesNotSupersede()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        const auto result = h->submit(bob, canvas(bob, h->now - 10, v1, "# older"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Conflict));
        QCOMPARE(result.message,
                 std::string("conflict: canvas write does not supersede the current head"));
    }

    void sameSecondLowerIdSupersedes()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        const auto candidate = canvasWithIdOrder(bob, h->now, v1, v1, true);
        const auto result = h->submit(bob, candidate);
        QCOMPARE(int(result.status), int(IngestResult::Status::Stored));
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(candidate.id));
    }

    void sameSecondHigherIdDoesNotSupersede()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        const auto candidate = canvasWithIdOrder(bob, h->now, v1, v1, false);
        const auto result = h->submit(bob, candidate);
        QCOMPARE(result.message,
                 std::string("conflict: canvas write does not supersede the current head"));
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(v1));
    }

    void replayOfCurrentHeadIsAcceptedDuplicate()
    {
        const auto event = canvas(alice, h->now, "none", "# v1");
        QVERIFY(h->submit(alice, event).accepted());
        const auto replay = h->submit(alice, event);
        QCOMPARE(int(replay.status), int(IngestResult::Status::Duplicate));
        QVERIFY(replay.accepted());
        QCOMPARE(replay.message, std::string("duplicate:"));
    }

    void replayOfNonHeadIsRejected()
    {
        const auto first = canvas(alice, h->now, "none", "# v1");
        QVERIFY(h->submit(alice, first).accepted());
        save(alice, h->now + 1, first.id, "# v2");
        const auto replay = h->submit(alice, first);
        QVERIFY(!replay.accepted());
        QCOMPARE(int(replay.status), int(IngestResult::Status::Conflict));
        QCOMPARE(replay.message, std::string("conflict: canvas changed since it was loaded"));
        // An untagged replay of a non-head revision is not a false success either.
        const auto untagged = canvas(alice, h->now - 5, std::nullopt, "# untagged");
        QVERIFY(h->submit(alice, untagged).accepted());
        QVERIFY(!h->submit(alice, untagged).accepted());
    }

    void untaggedWritesAreUnconditionalAppends()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        QVERIFY(!v1.empty());
        const auto older = canvas(bob, h->now - 100, std::nullopt, "# legacy older");
        QCOMPARE(int(h->submit(bob, older).status), int(IngestResult::Status::Stored));
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(v1));
        const auto newer = canvas(bob, h->now + 5, std::nullopt, "# legacy newer");
        QCOMPARE(int(h->submit(bob, newer).status), int(IngestResult::Status::Stored));
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(newer.id));
    }

    void expectedRevisionIsCaseInsensitive()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        QString upper = QString::fromStdString(v1).toUpper();
        const auto result =
            h->submit(alice, canvas(alice, h->now + 1, upper.toStdString(), "# v2"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Stored));
    }

    void deletedHeadRevertsToPreviousRevision()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        const auto v2 = save(alice, h->now + 1, v1, "# v2");
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(v2));
        const auto deletion = alice.sign(5, h->now + 2, {{"e", v2}, {"h", kChannelA}});
        QCOMPARE(int(h->submit(alice, deletion).status), int(IngestResult::Status::Stored));
        QCOMPARE(h->canvasHead(alice, kChannelA), std::optional<std::string>(v1));
        // The deleted revision is no longer the head: asserting it is a mismatch, replaying it too.
        const auto result = h->submit(alice, canvas(alice, h->now + 3, v2, "# v3"));
        QCOMPARE(result.message, std::string("conflict: canvas changed since it was loaded"));
        QVERIFY(h->submit(alice, canvas(alice, h->now + 3, v1, "# v3")).accepted());
    }

    void invalidExpectedRevisionShapes_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QString>("message");
        QTest::newRow("two tags") << 0 << "invalid: duplicate expected-revision tag";
        QTest::newRow("three elements")
            << 1 << "invalid: expected-revision tag must have exactly one value";
        QTest::newRow("one element")
            << 2 << "invalid: expected-revision tag must have exactly one value";
        QTest::newRow("not hex") << 3 << "invalid: bad expected canvas revision";
        QTest::newRow("short hex") << 4 << "invalid: bad expected canvas revision";
    }

    void invalidExpectedRevisionShapes()
    {
        QFETCH(int, shape);
        QFETCH(QString, message);
        nostr::Tags tags {{"h", kChannelA}};
        switch (shape) {
        case 0:
            tags.push_back({"expected-revision", "none"});
            tags.push_back({"expected-revision", "none"});
            break;
        case 1:
            tags.push_back({"expected-revision", "none", "extra"});
            break;
        case 2:
            tags.push_back({"expected-revision"});
            break;
        case 3:
            tags.push_back({"expected-revision", std::string(64, 'z')});
            break;
        case 4:
            tags.push_back({"expected-revision", "abcd"});
            break;
        }
        const auto result = h->submit(alice, alice.sign(40100, h->now, tags, "# x"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Rejected));
        QCOMPARE(QString::fromStdString(result.message), message);
        QCOMPARE(result.httpStatus(), 400);
    }

    void futureBoundIs300Seconds()
    {
        auto result = h->submit(alice, canvas(alice, h->now + 301, "none", "# future"));
        QCOMPARE(result.message,
                 std::string("invalid: canvas event timestamp too far in the future"));
        result = h->submit(alice, canvas(alice, h->now + 300, "none", "# edge"));
        QCOMPARE(int(result.status), int(IngestResult::Status::Stored));
    }

    void canvasIsNeverThreadValidated()
    {
        // An e tag with a reply marker pointing nowhere would fail NIP-10 on a message; not on a
        // canvas.
        const auto event = alice.sign(
            40100, h->now, {{"h", kChannelA}, {"e", std::string(64, 'b'), "", "reply"}}, "# x");
        QCOMPARE(int(h->submit(alice, event).status), int(IngestResult::Status::Stored));
    }

    void concurrentWritersOnOneHeadOnlyOneWins()
    {
        const auto v1 = save(alice, h->now, "none", "# v1");
        std::atomic<int> stored {0};
        std::atomic<int> conflicts {0};
        std::vector<std::thread> writers;
        for (int i = 0; i < 8; ++i) {
            writers.emplace_back([&, i] {
                Identity writer;
                const auto result = h->engine->ingest(
                    writer.sign(40100, h->now + 1, {{"h", kChannelA}, {"expected-revision", v1}},
                                "# writer " + std::to_string(i)),
                    writer.http());
                if (result.status == IngestResult::Status::Stored)
                    ++stored;
                else if (result.status == IngestResult::Status::Conflict)
                    ++conflicts;
            });
        }
        for (auto &writer : writers)
            writer.join();
        QCOMPARE(stored.load(), 1);
        QCOMPARE(conflicts.load(), 7);
    }
};

QTEST_GUILESS_MAIN(TestEngineCanvasCas)
#include "test_ingest_canvas_cas.moc"
