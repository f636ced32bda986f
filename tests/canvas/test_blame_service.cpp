// History through the real in-process relay: restore and merge labels are extra tags on the saved
// 40100 that the relay stores and every read returns; blame walks the history pages only as far
// back as its lines need, caches what it learned, and reports (never guesses) a parent the relay
// cannot give.

#include "CanvasTestSupport.h"
#include "canvas/BlameService.h"
#include "net/client/HttpBridgeClient.h"

#include <QDateTime>
#include <QTest>

using namespace buzz;
using buzz::canvas::Blame;
using buzz::canvas::BlameService;
using buzz::canvas::CanvasRevision;
using buzz::canvas::RevisionLabel;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using Kind = buzz::canvas::SaveOutcome::Kind;

class TestBlameService : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::vector<std::unique_ptr<CanvasClient>> m_clients;
    QString m_channel;
    qint64 m_clock = 0; // every client signs one second after the last save

    CanvasClient &newClient()
    {
        m_clients.push_back(std::make_unique<CanvasClient>(m_relay->proxy.url()));
        m_clients.back()->service->setClock([this] { return m_clock; });
        return *m_clients.back();
    }
    CanvasClient &client(int i) { return *m_clients[std::size_t(i)]; }

    CanvasRevision saveOk(CanvasClient &by, std::optional<CanvasRevision> base, const QString &text,
                          canvas::SaveOptions options = {})
    {
        ++m_clock;
        const SaveOutcome outcome = await(by.service->save(m_channel, base, text, options));
        if (outcome.kind != Kind::SavedVerified || !outcome.saved)
            qWarning() << "save failed:" << outcome.kindName()
                       << (outcome.error ? outcome.error->detail : QString());
        return outcome.saved.value_or(CanvasRevision {});
    }

    // Revision i appends "line i"; the tenth also rewrites line 0. By three authors in turn.
    std::vector<CanvasRevision> seedAppends(int count)
    {
        std::vector<CanvasRevision> saved;
        QString text;
        std::optional<CanvasRevision> base;
        for (int i = 0; i < count; ++i) {
            text += QStringLiteral("line %1\n").arg(i);
            if (i == 10)
                text.replace(QStringLiteral("line 0\n"), QStringLiteral("line 0, edited\n"));
            base = saveOk(client(i % 3), base, text);
            saved.push_back(*base);
        }
        return saved;
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        // Saves are stamped one second apart, ending before the relay's clock (it refuses a
        // canvas more than 300 s ahead).
        m_clock = QDateTime::currentSecsSinceEpoch() - 200;
        CanvasClient &owner = newClient();
        newClient();
        newClient();
        m_channel = QString::fromStdString(m_relay->relay->createChannel(owner.identity, "blame"));
        QVERIFY(!m_channel.isEmpty());
    }

    void cleanup()
    {
        m_clients.clear();
        m_relay.reset();
    }

    void restoreAndMergeLabelsAreStoredAndReadBack()
    {
        const CanvasRevision first = saveOk(client(0), std::nullopt, QStringLiteral("draft\n"));
        const CanvasRevision second = saveOk(client(1), first, QStringLiteral("rewrite\n"));
        QVERIFY(second.isValid() && !second.label);

        ++m_clock;
        const SaveOutcome restored =
            await(client(2).service->restore(m_channel, first.eventId, second.eventId));
        COMPARE_KIND(restored, Kind::SavedVerified);
        const auto restoreLabel = RevisionLabel::restoring(first);
        QCOMPARE(restored.saved->label, std::optional<RevisionLabel>(restoreLabel));
        // The relay received the tag and stored it: the event read back from the writer has it.
        bool sent = false;
        for (const auto &post : m_relay->proxy.forwarded("/events"))
            sent = sent || post.body.contains("\"restored-from\"");
        QVERIFY(sent);
        auto head = await(client(0).service->head(m_channel, canvas::ReadIntent::Strong));
        QVERIFY(head && *head);
        QCOMPARE((*head)->label, std::optional<RevisionLabel>(restoreLabel));
        QCOMPARE((*head)->label->author,
                 QString::fromStdString(client(0).identity.key.publicKeyHex()));

        canvas::SaveOptions merge;
        merge.label = RevisionLabel::merging(**head);
        const CanvasRevision merged =
            saveOk(client(1), **head, QStringLiteral("draft\nmerged\n"), merge);
        QVERIFY(merged.isValid());
        auto page = await(client(0).service->history(m_channel));
        QVERIFY(page);
        QCOMPARE(int(page->revisions.size()), 4);
        QCOMPARE(page->revisions[0].label, merge.label);
        QCOMPARE(page->revisions[0].label->kind, RevisionLabel::Kind::Merge);
        QCOMPARE(page->revisions[1].label, std::optional<RevisionLabel>(restoreLabel));
        QVERIFY(!page->revisions[2].label && !page->revisions[3].label);
    }

    void blameReadsOnlyThePagesItNeedsAndCaches()
    {
        const auto saved = seedAppends(25);
        BlameService blame(client(0).service.get());
        blame.setChannel(m_channel);
        blame.setPageSize(5);
        auto result = await(blame.blame(saved.back()));
        QVERIFY(result);
        QCOMPARE(int(result->lines.size()), 25);
        QVERIFY(result->complete());
        QCOMPARE(result->lines[0].text, QStringLiteral("line 0, edited"));
        QCOMPARE(result->lines[0].revisionId, saved[10].eventId);
        QCOMPARE(result->lines[0].author, saved[10].author);
        for (int i = 1; i < 25; ++i) {
            QCOMPARE(result->lines[std::size_t(i)].revisionId, saved[std::size_t(i)].eventId);
            QCOMPARE(result->lines[std::size_t(i)].createdAt, saved[std::size_t(i)].createdAt);
        }
        QCOMPARE(result->lines[4].author,
                 QString::fromStdString(client(1).identity.key.publicKeyHex()));
        QCOMPARE(blame.pagesRead(), 5);

        // Cached: the same blame sends nothing.
        const std::size_t queries = m_relay->proxy.forwarded("/query").size();
        QVERIFY(await(blame.blame(saved.back())));
        QCOMPARE(m_relay->proxy.forwarded("/query").size(), queries);
        QVERIFY(blame.isCached(saved.back().eventId));

        // The next revision costs one line diff against the cached blame, no read.
        const CanvasRevision next =
            saveOk(client(2), saved.back(), saved.back().content + QStringLiteral("line 25\n"));
        const std::size_t before = m_relay->proxy.forwarded("/query").size();
        result = await(blame.blame(next));
        QVERIFY(result);
        QCOMPARE(m_relay->proxy.forwarded("/query").size(), before);
        QCOMPARE(result->revisionsWalked, 1);
        QCOMPARE(result->lines[25].revisionId, next.eventId);
        QCOMPARE(result->lines[3].revisionId, saved[3].eventId);

        // A rewrite of every line needs no page beyond the one that lists its parent.
        const CanvasRevision rewrite = saveOk(client(0), next, QStringLiteral("all new\n"));
        BlameService fresh(client(1).service.get());
        fresh.setChannel(m_channel);
        fresh.setPageSize(5);
        result = await(fresh.blame(rewrite));
        QVERIFY(result && result->complete());
        QCOMPARE(result->lines[0].revisionId, rewrite.eventId);
        QCOMPARE(fresh.pagesRead(), 1);
    }

    void aParentTheRelayCannotGiveIsReported()
    {
        const auto saved = seedAppends(6);
        // Revision 2's author deletes it: no page lists it and a read by id finds nothing.
        CanvasClient &author = client(2);
        const nostr::Event deletion =
            author.identity.sign(5, m_clock, {{"e", saved[2].eventId.toStdString()}});
        auto deleted = await(author.connection->bridge()->publish(
            deletion, client::options(QStringLiteral("test_delete"))));
        QVERIFY(deleted && deleted->accepted);

        BlameService blame(client(0).service.get());
        blame.setChannel(m_channel);
        auto result = await(blame.blame(saved.back()));
        QVERIFY(result);
        QVERIFY(!result->complete());
        QCOMPARE(blame.revisionsReadById(), 1);
        // Lines 4 and 5 are traced; revision 3's lines may be its own or older: "or earlier".
        QCOMPARE(result->lines[5].revisionId, saved[5].eventId);
        QVERIFY(!result->lines[5].orEarlier);
        QCOMPARE(result->lines[4].revisionId, saved[4].eventId);
        for (int line = 0; line <= 3; ++line) {
            QCOMPARE(result->lines[std::size_t(line)].revisionId, saved[3].eventId);
            QVERIFY(result->lines[std::size_t(line)].orEarlier);
        }
        QVERIFY(!blame.isCached(saved.back().eventId)); // asked again next time
        const int pages = blame.pagesRead();
        QVERIFY(await(blame.blame(saved.back())));
        QVERIFY(blame.pagesRead() > pages);
    }
};

QTEST_GUILESS_MAIN(TestBlameService)
#include "test_blame_service.moc"
