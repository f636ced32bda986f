// CanvasDrafts: the draft rules an open canvas relies on, without any widget or relay.

#include "canvas/CanvasDrafts.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

using buzz::canvas::CanvasDrafts;
using buzz::canvas::CanvasRevision;
using buzz::canvas::DraftScope;
using buzz::canvas::DraftStore;

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

DraftScope scope(DraftStore *store)
{
    return DraftScope {store, kRelay, kCommunity};
}
} // namespace

class TestCanvasDrafts : public QObject
{
    Q_OBJECT

private slots:
    void autosaveIsDebouncedAndFires()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        QSignalSpy due(&drafts, &CanvasDrafts::autosaveDue);
        drafts.textEdited();
        drafts.textEdited(); // a second keystroke restarts the debounce, one autosave follows
        QVERIFY(drafts.autosavePending());
        QVERIFY(due.wait(5000));
        QCOMPARE(due.count(), 1);
        QVERIFY(!drafts.autosavePending());
        drafts.textEdited();
        drafts.stopAutosave(); // leaving the editor cancels a pending autosave
        QVERIFY(!due.wait(1500));
    }

    void continuousTypingIsAutosavedWithinTheMaximumWait()
    {
        // A keystroke every 50 ms never leaves the 1 s pause the debounce waits for; the draft
        // must be written anyway, kAutosaveMaxDelayMs after the first keystroke not on disk.
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        QSignalSpy due(&drafts, &CanvasDrafts::autosaveDue);
        QTimer typing;
        int keystrokes = 0;
        QObject::connect(&typing, &QTimer::timeout, &drafts, [&] {
            ++keystrokes;
            drafts.textEdited();
        });
        QElapsedTimer elapsed;
        elapsed.start();
        drafts.textEdited();
        typing.start(50);
        QVERIFY(due.wait(10000)); // generous: the machine may be loaded
        QVERIFY(keystrokes > 0);
        // And again while typing goes on: every stretch of keystrokes is written.
        QVERIFY(due.wait(10000));
        QVERIFY(typing.isActive());
        typing.stop();
        qInfo("two autosaves during %d keystrokes over %lld ms", keystrokes, elapsed.elapsed());
    }

    void reportsWhenTheAutosaveFallsDueAndTheWriteUnderWay()
    {
        // What a check from outside (the session model's crash oracle) reads to tell a machine
        // too busy to run the event loop from an autosave scheduled too late.
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        QSignalSpy due(&drafts, &CanvasDrafts::autosaveDue);
        drafts.beginEdit();
        QVERIFY(!drafts.autosaveDueInMs());
        QVERIFY(!drafts.writingForMs());
        drafts.textEdited();
        QElapsedTimer sinceFirst; // started after the first keystroke: its deadline is earlier
        sinceFirst.start();
        const auto first = drafts.autosaveDueInMs();
        QVERIFY(first && *first <= CanvasDrafts::kAutosaveDelayMs);
        // The GUI thread blocked (not a wait for anything): then a keystroke moves the debounce,
        // never the maximum wait.
        QThread::msleep(CanvasDrafts::kAutosaveMaxDelayMs - CanvasDrafts::kAutosaveDelayMs + 100);
        drafts.textEdited();
        const auto typingOn = drafts.autosaveDueInMs();
        QVERIFY(typingOn && *typingOn <= CanvasDrafts::kAutosaveMaxDelayMs - sinceFirst.elapsed());
        // Blocked past the maximum wait: the autosave is due, and not yet sent, until the event
        // loop runs.
        QThread::msleep(CanvasDrafts::kAutosaveMaxDelayMs);
        const auto blocked = drafts.autosaveDueInMs();
        QVERIFY(blocked && *blocked <= 0);
        QCOMPARE(due.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(due.count(), 1, 10000);
        QVERIFY(!drafts.autosaveDueInMs());

        const CanvasRevision base = revision(u'f', QStringLiteral("# v1"));
        drafts.storeInBackground(base, QStringLiteral("# v1 typed"));
        const auto writing = drafts.writingForMs();
        QVERIFY(writing && *writing >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(!drafts.writingForMs(), 10000); // on disk
        QVERIFY(drafts.autosavedAt());
    }

    void aNewEditDoesNotOverwriteADraftItNeverLoaded()
    {
        // Seed 403 of the session model under load: the app is killed with words only in the
        // draft of base X; after the restart the canvas opens on an older head (a lagging
        // replica), the user ignores the draft banner and types, the save conflicts, the merge
        // moves the new edit onto X, and its autosave writes X's draft file: the killed edit's
        // words are gone (and the file is deleted once the merge is saved).
        QTemporaryDir dir;
        DraftStore store(dir.path());
        const CanvasRevision x = revision(u'e', QStringLiteral("# x"));
        {
            CanvasDrafts killed(scope(&store), kChannel);
            killed.beginEdit();
            QVERIFY(killed.store(x, QStringLiteral("# x\nu403x10 u403x11")));
        }
        CanvasDrafts next(scope(&store), kChannel);
        next.beginEdit();
        QVERIFY(next.store(x, QStringLiteral("# x\nu403x29 merged")));
        bool kept = false;
        for (const auto &draft : store.draftsForChannel(kRelay, kCommunity, kChannel))
            kept = kept || draft.content.contains(QStringLiteral("u403x10"));
        QVERIFY(kept);
        // The new edit's own draft is beside it, and goes when its save is verified; the killed
        // edit's stays until the user restores or discards it.
        QCOMPARE(int(store.draftsForChannel(kRelay, kCommunity, kChannel).size()), 2);
        next.discardEditDrafts();
        const auto left = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(left.size()), 1);
        QVERIFY(left.front().content.contains(QStringLiteral("u403x10")));
    }

    void aRestoredDraftIsWrittenInPlace()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        const CanvasRevision x = revision(u'e', QStringLiteral("# x"));
        {
            CanvasDrafts earlier(scope(&store), kChannel);
            earlier.beginEdit();
            QVERIFY(earlier.store(x, QStringLiteral("# x\nfirst words")));
        }
        const auto offered = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(offered.size()), 1);
        CanvasDrafts restored(scope(&store), kChannel);
        restored.beginEdit(offered.front().key);
        QVERIFY(restored.store(x, QStringLiteral("# x\nfirst words, more")));
        const auto after = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(after.size()), 1); // the same file, not a copy beside it
        QCOMPARE(after.front().content, QStringLiteral("# x\nfirst words, more"));
        restored.discard(x); // the user discards this edit: its draft goes
        QVERIFY(store.draftsForChannel(kRelay, kCommunity, kChannel).empty());
    }

    void autosavedOnlyWhileEverythingTypedIsOnDisk()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        const CanvasRevision base = revision(u'f', QStringLiteral("# v1"));
        QSignalSpy changed(&drafts, &CanvasDrafts::autosavedChanged);
        drafts.beginEdit();
        QVERIFY(!drafts.autosavedAt());
        drafts.textEdited();
        drafts.storeInBackground(base, QStringLiteral("# v1 typed"));
        // Written on the writer thread: visible to load() at once, "autosaved" once on disk.
        QCOMPARE(store.load(drafts.keyFor(base))->content, QStringLiteral("# v1 typed"));
        QTRY_VERIFY_WITH_TIMEOUT(drafts.autosavedAt().has_value(), 10000);
        QVERIFY(!changed.isEmpty());
        QCOMPARE(DraftStore(dir.path()).load(drafts.keyFor(base))->content,
                 QStringLiteral("# v1 typed"));

        // A keystroke after the write: no longer true.
        drafts.textEdited();
        QVERIFY(!drafts.autosavedAt());
        // Typed while a write is under way: that write does not make it true either.
        drafts.storeInBackground(base, QStringLiteral("# v1 typed more"));
        drafts.textEdited();
        store.flush();
        QCoreApplication::processEvents();
        QVERIFY(!drafts.autosavedAt());
        drafts.storeInBackground(base, QStringLiteral("# v1 typed more and more"));
        QTRY_VERIFY_WITH_TIMEOUT(drafts.autosavedAt().has_value(), 10000);
        QCOMPARE(store.load(drafts.keyFor(base))->content,
                 QStringLiteral("# v1 typed more and more"));
    }

    void draftIsKeyedByTheEditBase()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        const CanvasRevision base = revision(u'a', QStringLiteral("# v1"));
        QVERIFY(drafts.store(base, QStringLiteral("# v1 and my words")));
        const auto stored = store.load(drafts.keyFor(base));
        QVERIFY(stored);
        QCOMPARE(stored->content, QStringLiteral("# v1 and my words"));
        QCOMPARE(stored->key.baseRevision, base.eventId);
        QCOMPARE(drafts.keyFor(std::nullopt).baseRevision, QStringLiteral("none"));
    }

    void completedEditRemovesOnlyItsOwnDrafts()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        const CanvasRevision older = revision(u'b', QStringLiteral("# old"));
        const CanvasRevision base = revision(u'c', QStringLiteral("# base"));
        // A draft from another window (another base) must survive our save.
        CanvasDrafts other(scope(&store), kChannel);
        other.store(older, QStringLiteral("someone else's unsaved text"));

        CanvasDrafts drafts(scope(&store), kChannel);
        drafts.beginEdit();
        drafts.store(std::nullopt, QStringLiteral("written before the merge moved the base"));
        drafts.store(base, QStringLiteral("merged text"));
        QCOMPARE(int(store.draftsForChannel(kRelay, kCommunity, kChannel).size()), 3);

        drafts.discardEditDrafts();
        const auto left = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(left.size()), 1);
        QCOMPARE(left.front().content, QStringLiteral("someone else's unsaved text"));
    }

    void withdrawRemovesOnlyThisEditsDraft()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        const CanvasRevision base = revision(u'1', QStringLiteral("text"));
        CanvasDrafts other(scope(&store), kChannel);
        other.store(base, QStringLiteral("text typed in another window"));
        CanvasDrafts drafts(scope(&store), kChannel);
        drafts.beginEdit();
        drafts.withdraw(base); // not written by this edit: kept
        QCOMPARE(int(store.draftsForChannel(kRelay, kCommunity, kChannel).size()), 1);
        drafts.store(base, QStringLiteral("text and a word")); // beside the other's, not over it
        QCOMPARE(int(store.draftsForChannel(kRelay, kCommunity, kChannel).size()), 2);
        drafts.withdraw(base); // the user removed the word again
        const auto left = store.draftsForChannel(kRelay, kCommunity, kChannel);
        QCOMPARE(int(left.size()), 1);
        QCOMPARE(left.front().content, QStringLiteral("text typed in another window"));
    }

    void offersADraftUnlessTheHeadAlreadyHasItsText()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        CanvasDrafts drafts(scope(&store), kChannel);
        const CanvasRevision base = revision(u'd', QStringLiteral("# v1"));
        drafts.store(base, QStringLiteral("# v2 typed offline"));

        const auto offered = drafts.draftToOffer(base);
        QVERIFY(offered);
        QCOMPARE(offered->content, QStringLiteral("# v2 typed offline"));

        // Someone saved exactly that text: nothing to offer, and the stale draft is gone.
        const CanvasRevision head = revision(u'e', QStringLiteral("# v2 typed offline"));
        QVERIFY(!drafts.draftToOffer(head));
        QVERIFY(store.draftsForChannel(kRelay, kCommunity, kChannel).empty());
    }

    void withoutAStoreNothingBreaks()
    {
        CanvasDrafts drafts(DraftScope {}, kChannel);
        QVERIFY(!drafts.isAvailable());
        QVERIFY(!drafts.store(std::nullopt, QStringLiteral("text")));
        drafts.discardEditDrafts();
        QVERIFY(!drafts.draftToOffer(std::nullopt));
    }
};

QTEST_GUILESS_MAIN(TestCanvasDrafts)
#include "test_canvas_drafts.moc"
