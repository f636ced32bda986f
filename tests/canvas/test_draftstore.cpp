#include "canvas/DraftStore.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <thread>

using buzz::canvas::Draft;
using buzz::canvas::DraftKey;
using buzz::canvas::DraftStore;

namespace {

DraftKey key(const QString &base = QStringLiteral("none"))
{
    return DraftKey {QStringLiteral("http://127.0.0.1:3000"), QStringLiteral("127.0.0.1:3000"),
                     QStringLiteral("6f1c0d2e-1111-4222-8333-944455556666"), base};
}

// Child mode: autosave a draft, report it, then keep rewriting it until killed (SIGKILL lands
// at an arbitrary point, possibly mid-write).
int runChild(const QString &dir)
{
    DraftStore store(dir);
    store.scheduleAutosave(key(), QStringLiteral("unsaved words v0"), 0);
    store.flush();
    std::fputs("autosaved\n", stdout);
    std::fflush(stdout);
    for (int i = 1;; ++i)
        store.store(key(),
                    QStringLiteral("unsaved words v%1 ").arg(i) + QString(4096, QLatin1Char('x')));
}

} // namespace

class TestDraftStore : public QObject
{
    Q_OBJECT

private slots:
    void storeLoadDiscard()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        QVERIFY(!store.load(key()));
        QVERIFY(store.store(key(), QStringLiteral("hello")));
        const auto draft = store.load(key());
        QVERIFY(draft);
        QCOMPARE(draft->content, QStringLiteral("hello"));
        QCOMPARE(draft->key, key());
        QVERIFY(draft->savedAt.isValid());
        // Another base is another draft.
        QVERIFY(!store.load(key(QString(64, QLatin1Char('a')))));
        QVERIFY(store.discard(key()));
        QVERIFY(!store.load(key()));
    }

    void draftsAreScopedByRelayCommunityAndChannel()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        DraftKey other = key();
        other.communityHost = QStringLiteral("team.example.com");
        store.store(key(), QStringLiteral("A"));
        store.store(key(QString(64, QLatin1Char('b'))), QStringLiteral("B"));
        store.store(other, QStringLiteral("C"));
        const auto drafts =
            store.draftsForChannel(key().relay, key().communityHost, key().channel.toUpper());
        QCOMPARE(drafts.size(), std::size_t(2));
        QCOMPARE(store.allDrafts().size(), std::size_t(3));
    }

    void filesAreOwnerOnly()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        store.store(key(), QStringLiteral("private notes"));
        const QFile::Permissions permissions = QFile::permissions(dir.filePath(key().fileName()));
        QVERIFY(permissions & QFileDevice::ReadOwner);
        QVERIFY(!(permissions & (QFileDevice::ReadGroup | QFileDevice::ReadOther)));
    }

    void autosaveIsDebouncedAndSurvivesRestart()
    {
        QTemporaryDir dir;
        {
            DraftStore store(dir.path());
            QSignalSpy stored(&store, &DraftStore::draftStored);
            store.scheduleAutosave(key(), QStringLiteral("first"), 20);
            store.scheduleAutosave(key(), QStringLiteral("second"), 20);
            QCOMPARE(store.load(key())->content,
                     QStringLiteral("second")); // pending is visible at once
            QVERIFY(stored.wait(2000));
            QCOMPARE(stored.count(), 1);
        }
        DraftStore reopened(dir.path());
        QCOMPARE(reopened.load(key())->content, QStringLiteral("second"));
    }

    void pendingAutosaveIsFlushedOnDestruction()
    {
        QTemporaryDir dir;
        {
            DraftStore store(dir.path());
            store.scheduleAutosave(key(), QStringLiteral("typed just before quitting"), 60000);
        }
        QCOMPARE(DraftStore(dir.path()).load(key())->content,
                 QStringLiteral("typed just before quitting"));
    }

    void backgroundWritesKeepTheirOrderAndADiscardWins()
    {
        QTemporaryDir dir;
        DraftStore store(dir.path());
        QSignalSpy finished(&store, &DraftStore::backgroundWriteFinished);
        const QString big = QString(256 * 1024, QLatin1Char('w'));
        store.storeInBackground(key(), QStringLiteral("first ") + big);
        const quint64 last = store.storeInBackground(key(), QStringLiteral("second ") + big);
        QCOMPARE(store.load(key())->content, QStringLiteral("second ") + big); // at once
        QTRY_VERIFY_WITH_TIMEOUT(
            !finished.isEmpty() && finished.last().at(0).value<quint64>() == last, 10000);
        QCOMPARE(DraftStore(dir.path()).load(key())->content, QStringLiteral("second ") + big);

        // A discard right after a queued write: the file does not come back.
        store.storeInBackground(key(), QStringLiteral("third"));
        QVERIFY(store.discard(key()));
        store.flush();
        QVERIFY(!DraftStore(dir.path()).load(key()));
        QVERIFY(!QFile::exists(dir.filePath(key().fileName())));

        // A synchronous store after a queued one: the synchronous text is what stays.
        store.storeInBackground(key(), QStringLiteral("queued"));
        QVERIFY(store.store(key(), QStringLiteral("stored now")));
        store.flush();
        QCOMPARE(DraftStore(dir.path()).load(key())->content, QStringLiteral("stored now"));
    }

    void draftSurvivesAProcessKilledAfterAutosave()
    {
        QTemporaryDir dir;
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--draft-child"), dir.path()});
        child.start();
        QVERIFY(child.waitForStarted());
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT((output += child.readAllStandardOutput()).contains("autosaved"),
                                 10000);
        // Let it rewrite the draft a few times so the kill can land mid-write.
        QTRY_VERIFY_WITH_TIMEOUT(QFile(dir.filePath(key().fileName())).size() > 4096, 10000);
        child.kill();
        QVERIFY(child.waitForFinished(5000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        DraftStore store(dir.path());
        const auto draft = store.load(key());
        QVERIFY2(draft, "the draft must be intact after a crash (atomic writes)");
        QVERIFY(draft->content.startsWith(QStringLiteral("unsaved words v")));
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && std::strcmp(argv[1], "--draft-child") == 0) {
        QCoreApplication app(argc, argv);
        return runChild(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestDraftStore test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_draftstore.moc"
