// Changes as they happen (issue 31 item 3) in real windows: Bob reads while Alice saves — "Alice
// changed this canvas just now · Show changes", the new paragraph highlighted in the rendered
// canvas, the change line by line in a dialog; Bob opens the canvas again after Alice changed it
// meanwhile — "This canvas changed since your last visit · What changed".

#include "UiTestHarness.h"
#include "canvas/CanvasSession.h"
#include "ui/CanvasPane.h"
#include "ui/ChangesDialog.h"
#include "ui/LiveChangeNotice.h"
#include "ui/MainWindow.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

namespace {

ui::LiveChangeNotice *notice(desktop::DesktopSession *session)
{
    return session->window()->findChild<ui::LiveChangeNotice *>(QStringLiteral("liveUpdateBanner"));
}

QPushButton *showButton(desktop::DesktopSession *session)
{
    return notice(session)->findChild<QPushButton *>(QStringLiteral("liveUpdateBannerShowButton"));
}

} // namespace

class LiveChangesUiTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aChangeWhileReadingIsAnnouncedAndHighlighted()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("news")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("# Plan\n\nKeep this part.\n")));
        auto *bob = harness.openSession(QStringLiteral("bob")); // after: Bob did not see it empty
        QVERIFY(bob);
        const QString channel = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::openChannel(bob, channel));
        ui::CanvasPane *bobPane = bob->window()->canvasPane();
        QTRY_VERIFY_WITH_TIMEOUT(
            bobPane->head() && bobPane->head()->content.contains(QStringLiteral("Keep")), 10000);
        QVERIFY(!notice(bob)->isVisible()); // the first visit: nothing to compare with

        QVERIFY(UiTestHarness::seedRevision(
            alice, QStringLiteral("# Plan\n\nKeep this part.\n\nA brand new paragraph here.\n")));
        QTRY_VERIFY_WITH_TIMEOUT(notice(bob)->isVisible(), 10000);
        QVERIFY2(notice(bob)->text().contains(QStringLiteral("changed this canvas just now")),
                 qPrintable(notice(bob)->text()));
        QVERIFY(showButton(bob) && showButton(bob)->isVisible());
        // The new paragraph is marked in the rendered canvas, the rest is not.
        QTRY_COMPARE_WITH_TIMEOUT(notice(bob)->highlightedBlocks(),
                                  QStringList {QStringLiteral("A brand new paragraph here.")},
                                  5000);

        showButton(bob)->click();
        auto *dialog = qobject_cast<ui::ChangesDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("canvasChangesDialog")));
        QVERIFY(dialog);
        QVERIFY2(dialog->diffText().contains(QStringLiteral("+ A brand new paragraph here.")),
                 qPrintable(dialog->diffText()));
        QVERIFY(!dialog->accessibleName().isEmpty());
        dialog->close();
    }

    void reopeningAChangedCanvasOffersWhatChanged()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        auto *bob = harness.openSession(QStringLiteral("bob"));
        QVERIFY(alice && bob);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("visits")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("first line\n")));
        const QString channel = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::openChannel(bob, channel));
        QTRY_VERIFY_WITH_TIMEOUT(bob->window()->canvasPane()->head(), 10000);
        harness.closeSession(bob); // Bob saw "first line"

        QVERIFY(UiTestHarness::seedRevision(alice,
                                            QStringLiteral("first line\n\nwritten while away\n")));
        bob = harness.openSession(QStringLiteral("bob")); // reopens his last channel
        QVERIFY(bob);
        QTRY_VERIFY_WITH_TIMEOUT(bob->window()->canvasPane()->channelId() == channel
                                     && bob->window()->canvasPane()->isHeadKnown(),
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(notice(bob)->isVisible(), 10000);
        QVERIFY2(notice(bob)->text().contains(QStringLiteral("since your last visit")),
                 qPrintable(notice(bob)->text()));
        showButton(bob)->click();
        auto *dialog = qobject_cast<ui::ChangesDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("canvasChangesDialog")));
        QVERIFY(dialog);
        QVERIFY2(dialog->diffText().contains(QStringLiteral("+ written while away")),
                 qPrintable(dialog->diffText()));
        QTRY_COMPARE_WITH_TIMEOUT(notice(bob)->highlightedBlocks(),
                                  QStringList {QStringLiteral("written while away")}, 5000);
        dialog->close();
    }
};

QTEST_MAIN(LiveChangesUiTest)
#include "test_live_changes.moc"
