// CanvasDraftSession: the draft rules the canvas editor relies on, without any widget or relay.

#include "ui/CanvasDraftSession.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using buzz::canvas::CanvasRevision;
using buzz::canvas::DraftStore;
using buzz::ui::CanvasDraftSession;

namespace {
const QString kRelay = QStringLiteral("http://127.0.0.1:3000");
const QString kCommunity = QStringLiteral("127.0.0.1:3000");
const QString kChannel = QStringLiteral("6f1c0d2e-1111-4222-8333-944455556666");

CanvasRevision revision(QChar fill, const QString &content)
{
    CanvasRevision revision;
    revision.eventId = QString(64, fill);
    revision.content = content;
    revision.createdAt = 1'790'000'000;
    return revision;
}
} // namespace

class TestCanvasDraftSession : public QObject
{
    Q_OBJECT

private slots:
    void autosaveIsDebouncedAndFires()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDraftSession session(&store, kRelay, kCommunity);
        session.setChannel(kChannel);
        QSignalSpy due(&session, &CanvasDraftSession::autosaveDue);
        session.textEdited();
        session.textEdited(); // a second keystroke restarts the debounce, one autosave follows
        QVERIFY(session.autosavePending());
        QVERIFY(due.wait(5000));
        QCOMPARE(due.count(), 1);
        QVERIFY(!session.autosavePending());
        session.textEdited();
        session.stopAutosave(); // leaving the editor cancels a pending autosave
        QVERIFY(!due.wait(1500));
    }

    void draftIsKeyedByTheEditBase()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDraftSession session(&store, kRelay, kCommunity);
        session.setChannel(kChannel);
        const CanvasRevision base = revision(u'a', QStringLiteral("# v1"));
        session.store(base, QStringLiteral("# v1 and my words"));
        const auto stored = store.load(session.keyFor(base));
        QVERIFY(stored);
        QCOMPARE(stored->content, QStringLiteral("# v1 and my words"));
        QCOMPARE(stored->key.baseRevision, base.eventId);
        QCOMPARE(session.keyFor(std::nullopt).baseRevision, QStringLiteral("none"));
    }

    void verifiedSaveRemovesOnlyThisEditsDrafts()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        const CanvasRevision older = revision(u'b', QStringLiteral("# old"));
        const CanvasRevision base = revision(u'c', QStringLiteral("# base"));
        // A draft from another window (another base) must survive our save.
        CanvasDraftSession other(&store, kRelay, kCommunity);
        other.setChannel(kChannel);
        other.store(older, QStringLiteral("someone else's unsaved text"));

        CanvasDraftSession session(&store, kRelay, kCommunity);
        session.setChannel(kChannel);
        session.beginEdit();
        session.store(std::nullopt, QStringLiteral("written before the merge moved the base"));
        session.store(base, QStringLiteral("merged text"));
        QCOMPARE(int(store.draftsForChannel(kRelay, kCommunity, kChannel).size()), 3);

        session.discardAfterVerifiedSave(base);
        const auto left = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(left.size()), 1);
        QCOMPARE(left.front().content, QStringLiteral("someone else's unsaved text"));
    }

    void offersADraftUnlessTheHeadAlreadyHasItsText()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDraftSession session(&store, kRelay, kCommunity);
        session.setChannel(kChannel);
        const CanvasRevision base = revision(u'd', QStringLiteral("# v1"));
        session.store(base, QStringLiteral("# v2 typed offline"));

        const auto offered = session.draftToOffer(base);
        QVERIFY(offered);
        QCOMPARE(offered->content, QStringLiteral("# v2 typed offline"));

        // Someone saved exactly that text: nothing to offer, and the stale draft is gone.
        const CanvasRevision head = revision(u'e', QStringLiteral("# v2 typed offline"));
        QVERIFY(!session.draftToOffer(head));
        QVERIFY(store.draftsForChannel(kRelay, kCommunity, kChannel).empty());
    }

    void withoutAStoreNothingBreaks()
    {
        CanvasDraftSession session(nullptr, kRelay, kCommunity);
        session.setChannel(kChannel);
        QVERIFY(!session.isAvailable());
        session.store(std::nullopt, QStringLiteral("text"));
        session.discardAfterVerifiedSave(std::nullopt);
        QVERIFY(!session.draftToOffer(std::nullopt));
    }
};

QTEST_GUILESS_MAIN(TestCanvasDraftSession)
#include "test_canvas_draft_session.moc"
