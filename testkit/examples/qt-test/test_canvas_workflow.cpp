// What a QA team's Qt Test project looks like with the Buzz Canvas test kit: each test starts the
// real app window in-process with a throwaway profile, on a relay of its own (or, with
// BUZZ_QA_RELAY_URL set, on that relay, e.g. staging), and drives it by the object names the
// app documents. No widget internals, no sleeps: every step waits for the app with a timeout and
// says what it waited for when it fails.

#include <BuzzCanvasTestKit/AppDriver.h>

#include <QDateTime>
#include <QStandardPaths>
#include <QTest>

using BuzzCanvasTestKit::AppDriver;

namespace {

// A staging relay from the environment (the test is the program here: it may read it), else each
// driver starts its own relay.
AppDriver::Options options(const QString &relayUrl = {})
{
    AppDriver::Options result;
    result.relayUrl = relayUrl.isEmpty() ? qEnvironmentVariable("BUZZ_QA_RELAY_URL") : relayUrl;
    return result;
}

// A channel name no earlier run on a shared relay used.
QString freshChannel(const char *stem)
{
    return QStringLiteral("%1-%2")
        .arg(QLatin1String(stem))
        .arg(QDateTime::currentMSecsSinceEpoch());
}

} // namespace

#define DRIVE(step) QVERIFY2(step, qPrintable(app.errorString()))

class CanvasWorkflow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void editSaveAndReadBack()
    {
        AppDriver app(options());
        DRIVE(app.start());
        DRIVE(app.createChannel(freshChannel("release")));
        DRIVE(app.startEditing());
        DRIVE(app.typeText(QStringLiteral("# Release notes\nfirst draft")));
        QCOMPARE(app.saveState(), QStringLiteral("Unsaved changes"));
        DRIVE(app.save());
        QCOMPARE(app.saveState(), QStringLiteral("Saved"));
        QCOMPARE(app.canvasText(), QStringLiteral("# Release notes\nfirst draft"));
    }

    void restoreAnOlderRevisionFromHistory()
    {
        AppDriver app(options());
        DRIVE(app.start());
        DRIVE(app.createChannel(freshChannel("history")));
        DRIVE(app.startEditing());
        DRIVE(app.replaceText(QStringLiteral("version one\n")));
        DRIVE(app.save());
        DRIVE(app.replaceText(QStringLiteral("version two\n")));
        DRIVE(app.save());
        DRIVE(app.stopEditing());

        DRIVE(app.openHistory());
        DRIVE(app.waitForRevisionCount(2));
        DRIVE(app.selectRevision(1)); // newest first: the first version
        DRIVE(app.restoreSelectedRevision());
        QCOMPARE(app.canvasText(), QStringLiteral("version one\n"));
        DRIVE(app.waitForRevisionCount(3)); // a restore is a new revision
    }

    void twoPeopleEditAndMergeTheirConflict()
    {
        AppDriver alice(options());
        QVERIFY2(alice.start(), qPrintable(alice.errorString()));
        AppDriver bob(options(alice.relayUrl())); // another identity on the same relay
        QVERIFY2(bob.start(), qPrintable(bob.errorString()));

        const QString channel = freshChannel("plans");
        QVERIFY2(alice.createChannel(channel), qPrintable(alice.errorString()));
        QVERIFY2(alice.startEditing(), qPrintable(alice.errorString()));
        QVERIFY2(alice.replaceText(QStringLiteral("alpha\nbeta\ngamma\n")),
                 qPrintable(alice.errorString()));
        QVERIFY2(alice.save(), qPrintable(alice.errorString()));

        QVERIFY2(bob.openChannel(channel), qPrintable(bob.errorString()));
        QVERIFY2(bob.joinChannel(), qPrintable(bob.errorString()));
        QVERIFY2(bob.waitForCanvasText(QStringLiteral("alpha\nbeta\ngamma\n")),
                 qPrintable(bob.errorString()));
        QVERIFY2(bob.startEditing(), qPrintable(bob.errorString()));

        // Both edit the same revision; Alice saves first, so Bob's save meets a conflict.
        QVERIFY2(alice.replaceText(QStringLiteral("ALPHA\nbeta\ngamma\n")),
                 qPrintable(alice.errorString()));
        QVERIFY2(alice.save(), qPrintable(alice.errorString()));
        QVERIFY2(bob.replaceText(QStringLiteral("alpha\nbeta\nGAMMA\n")),
                 qPrintable(bob.errorString()));
        QVERIFY2(bob.saveExpectingConflict(), qPrintable(bob.errorString()));
        QCOMPARE(bob.conflictResultText(), QStringLiteral("ALPHA\nbeta\nGAMMA\n"));
        QVERIFY2(bob.resolveConflict(AppDriver::Resolution::Merge), qPrintable(bob.errorString()));
        QCOMPARE(bob.canvasText(), QStringLiteral("ALPHA\nbeta\nGAMMA\n"));
        QVERIFY2(alice.waitForCanvasText(QStringLiteral("ALPHA\nbeta\nGAMMA\n")),
                 qPrintable(alice.errorString()));
    }
};

QTEST_MAIN(CanvasWorkflow)
#include "test_canvas_workflow.moc"
