// Changes as they happen (issue 31 item 3), without widgets: LiveChangeTracker on a real
// CanvasSession — a revision by someone else that arrives while the user reads is announced with
// the lines it added, highlighted for a while; the user's own saves are not news; a canvas that
// changed since the last visit (LastSeenRevisions, in the profile's settings) says so on opening.

#include "CanvasTestSupport.h"
#include "canvas/CanvasSession.h"
#include "canvas/LastSeenRevisions.h"
#include "canvas/LiveChangeTracker.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace buzz;
using canvas::CanvasRevision;
using canvas::CanvasSession;
using canvas::LastSeenRevisions;
using canvas::LiveChangeTracker;
using test::CanvasClient;

class LiveChangesTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::unique_ptr<CanvasClient> m_alice;
    std::unique_ptr<CanvasClient> m_bob;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_channel;

    CanvasRevision save(CanvasClient &who, const QString &text)
    {
        auto head = test::await(who.service->head(m_channel, canvas::ReadIntent::Strong));
        const auto outcome =
            test::await(who.service->save(m_channel, head ? *head : std::nullopt, text));
        return outcome.saved ? *outcome.saved : CanvasRevision {};
    }

    std::unique_ptr<CanvasSession> open(CanvasClient &who)
    {
        auto session = std::make_unique<CanvasSession>(who.service.get(), who.watch.get(),
                                                       m_channel, canvas::DraftScope {});
        return session;
    }

    static bool load(CanvasSession &session)
    {
        QSignalSpy loaded(&session, &CanvasSession::loadFinished);
        session.load();
        return loaded.wait(10000) && loaded.front().front().toBool();
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        m_alice = std::make_unique<CanvasClient>(m_relay->proxy.url());
        m_bob = std::make_unique<CanvasClient>(m_relay->proxy.url());
        m_channel = QString::fromStdString(m_relay->relay->createChannel(m_alice->identity, "l"));
        m_dir = std::make_unique<QTemporaryDir>();
    }

    void cleanup()
    {
        m_alice.reset();
        m_bob.reset();
        m_relay.reset();
        m_dir.reset();
    }

    void plainLineIsTheRenderedText()
    {
        QCOMPARE(LiveChangeTracker::plainLine(QStringLiteral("## **Plan** for `Q3`")),
                 QStringLiteral("Plan for Q3"));
        QCOMPARE(LiveChangeTracker::plainLine(QStringLiteral("  - [x] ship *it*")),
                 QStringLiteral("ship it"));
        QCOMPARE(LiveChangeTracker::plainLine(QStringLiteral("> 1. see [the doc](http://x/y)")),
                 QStringLiteral("see the doc"));
        QCOMPARE(LiveChangeTracker::plainLine(QStringLiteral("plain   words ")),
                 QStringLiteral("plain words"));
    }

    void betweenListsTheAddedLines()
    {
        CanvasRevision from;
        from.content = QStringLiteral("a\nb\nc\n");
        CanvasRevision to;
        to.content = QStringLiteral("a\nB\nc\nd\n");
        const auto change = LiveChangeTracker::between(from, to);
        QCOMPARE(change.addedLines, (QStringList {QStringLiteral("B"), QStringLiteral("d")}));
        QCOMPARE(change.removedLines, 1);
        QCOMPARE(int(LiveChangeTracker::between(std::nullopt, to).addedLines.size()), 4);
    }

    void aChangeWhileReadingIsAnnouncedAndHighlightedForAWhile()
    {
        save(*m_alice, QStringLiteral("# Plan\n\nkeep\n"));
        auto session = open(*m_alice);
        LiveChangeTracker tracker(session.get(), nullptr,
                                  QString::fromStdString(m_alice->identity.pubkey()));
        tracker.setHighlightFor(std::chrono::milliseconds(1500));
        QVERIFY(load(*session));
        QVERIFY(!tracker.announced());
        QVERIFY(!tracker.isHighlighting());

        QSignalSpy announced(&tracker, &LiveChangeTracker::announcedChanged);
        const CanvasRevision bobs = save(*m_bob, QStringLiteral("# Plan\n\nkeep\nnew line\n"));
        QVERIFY(bobs.isValid());
        QVERIFY(announced.wait(10000)); // the live subscription brought it
        QVERIFY(tracker.announced());
        QCOMPARE(tracker.announced()->to.eventId, bobs.eventId);
        QCOMPARE(tracker.announced()->to.author, QString::fromStdString(m_bob->identity.pubkey()));
        QCOMPARE(tracker.announced()->addedLines, QStringList {QStringLiteral("new line")});
        QVERIFY(tracker.isHighlighting());
        QCOMPARE(tracker.highlightedLines(), QStringList {QStringLiteral("new line")});
        // For a while, not for ever.
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.isHighlighting(), 10000);
        QVERIFY(tracker.highlightedLines().isEmpty());
        tracker.dismiss();
        QVERIFY(!tracker.announced());
    }

    void ownSavesAndEditingAreNotNews()
    {
        save(*m_alice, QStringLiteral("one\n"));
        auto session = open(*m_alice);
        LiveChangeTracker tracker(session.get(), nullptr,
                                  QString::fromStdString(m_alice->identity.pubkey()));
        QVERIFY(load(*session));
        QSignalSpy announced(&tracker, &LiveChangeTracker::announcedChanged);
        QSignalSpy head(session.get(), &CanvasSession::headChanged);
        save(*m_alice, QStringLiteral("one\ntwo\n")); // e.g. from the user's other window
        QVERIFY(head.wait(10000));
        QVERIFY(!tracker.announced());
        QVERIFY(announced.isEmpty());

        // While the user edits, the editor's own notice speaks (Reload / Merge), not this one.
        QVERIFY(session->startEditing());
        save(*m_bob, QStringLiteral("one\ntwo\nbob\n"));
        QVERIFY(head.wait(10000));
        QVERIFY(!tracker.announced());
    }

    void aCanvasChangedSinceTheLastVisitSaysSo()
    {
        QSettings settings(m_dir->filePath(QStringLiteral("profile.ini")), QSettings::IniFormat);
        LastSeenRevisions lastSeen(&settings, QStringLiteral("relay|community"));
        const QString alice = QString::fromStdString(m_alice->identity.pubkey());
        const CanvasRevision first = save(*m_alice, QStringLiteral("first\n"));
        {
            auto session = open(*m_alice);
            LiveChangeTracker tracker(session.get(), &lastSeen, alice);
            QSignalSpy sinceVisit(&tracker, &LiveChangeTracker::changedSinceLastVisit);
            QVERIFY(load(*session));
            QVERIFY(sinceVisit.isEmpty()); // the first visit: nothing to compare with
            QCOMPARE(lastSeen.lastSeen(m_channel), first.eventId);
        }
        // Unchanged: opening it again offers nothing.
        {
            auto session = open(*m_alice);
            LiveChangeTracker tracker(session.get(), &lastSeen, alice);
            QSignalSpy sinceVisit(&tracker, &LiveChangeTracker::changedSinceLastVisit);
            QVERIFY(load(*session));
            QVERIFY(sinceVisit.isEmpty());
        }
        const CanvasRevision bobs = save(*m_bob, QStringLiteral("first\nsecond\n"));
        // Kept in the profile's settings: a new process (new objects on the same file) knows it.
        settings.sync();
        QSettings reopened(m_dir->filePath(QStringLiteral("profile.ini")), QSettings::IniFormat);
        LastSeenRevisions again(&reopened, QStringLiteral("relay|community"));
        auto session = open(*m_alice);
        LiveChangeTracker tracker(session.get(), &again, alice);
        tracker.setHighlightFor(std::chrono::milliseconds(60000));
        QSignalSpy sinceVisit(&tracker, &LiveChangeTracker::changedSinceLastVisit);
        QVERIFY(load(*session));
        QCOMPARE(sinceVisit.size(), 1);
        QCOMPARE(sinceVisit.front().front().toString(), first.eventId);
        QCOMPARE(tracker.lastVisitRevision().value_or(QString()), first.eventId);
        QCOMPARE(again.lastSeen(m_channel), bobs.eventId); // seen now
        // "What changed": the lines since that revision are highlighted.
        tracker.showSince(first);
        QCOMPARE(tracker.highlightedLines(), QStringList {QStringLiteral("second")});
        // Another relay (or community) keeps its own record.
        LastSeenRevisions elsewhere(&reopened, QStringLiteral("other|community"));
        QVERIFY(elsewhere.lastSeen(m_channel).isEmpty());
    }
};

QTEST_GUILESS_MAIN(LiveChangesTest)
#include "test_live_changes.moc"
