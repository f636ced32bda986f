// People and time, as a daily user reads them: "You" for your own revisions ("Last edited by you"
// in the header), profile names for others (set from the Identity dialog, which publishes a kind-0
// profile) with the npub on hover, relative times that stay true while the app is open with the
// exact time on hover, and dates in the UI's language whatever the system's locale is.

#include "UiTestHarness.h"

#include "canvas/ProfileCache.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/Nip19.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/RelativeTimeTicker.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

using namespace buzz;
using test::UiTestHarness;

class PeopleTimeTest : public QObject
{
    Q_OBJECT

    static QLabel *revisionInfo(desktop::DesktopSession *session)
    {
        return session->window()->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
    }
    static QString npubOf(desktop::DesktopSession *session)
    {
        return QString::fromStdString(
            nostr::nip19::encodeNpub(session->services().connection->publicKeyHex().toStdString()));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup()
    {
        ui::UiFormat::setClockForTesting({});
        ui::RelativeTimeTicker::instance()->setInterval(std::chrono::seconds(30));
    }

    void ownRevisionsSayYouWithTheNpubOnHover()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("notes")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("mine\n")));
        auto *info = revisionInfo(alice);
        QTRY_VERIFY_WITH_TIMEOUT(info->text().startsWith(QStringLiteral("Last edited by you · ")),
                                 10000);
        QVERIFY2(info->toolTip().contains(npubOf(alice)), qPrintable(info->toolTip()));

        auto *window = alice->window();
        QTest::keyClick(window, Qt::Key_H, Qt::ControlModifier);
        auto *model = window->historyPanel()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() >= 1, 10000);
        QCOMPARE(model->data(model->index(0), ui::HistoryModel::AuthorRole).toString(),
                 QStringLiteral("You"));
        QVERIFY(model->data(model->index(0), Qt::ToolTipRole).toString().contains(npubOf(alice)));
    }

    void displayNameSetInIdentityIsShownToOthers()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        auto *bob = harness.openSession(QStringLiteral("bob"));
        QVERIFY(alice && bob);

        // Bob names himself through the Identity dialog: a kind-0 profile on the relay.
        bob->window()->showIdentity();
        auto *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("identityDialog"));
        QVERIFY(dialog);
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("displayNameEdit"));
        auto *save = dialog->findChild<QPushButton *>(QStringLiteral("saveDisplayNameButton"));
        QVERIFY(name && save);
        name->setFocus();
        QTest::keyClicks(name, QStringLiteral("Bob Builder"));
        QVERIFY(save->isEnabled());
        QTest::mouseClick(save, Qt::LeftButton);
        auto *status = dialog->findChild<QLabel *>(QStringLiteral("identityStatusLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Bob Builder")), 10000);
        dialog->close();
        // His own status bar says who he is now.
        auto *identityButton =
            bob->window()->findChild<QToolButton *>(QStringLiteral("identityButton"));
        QTRY_COMPARE_WITH_TIMEOUT(identityButton->text(), QStringLiteral("Bob Builder"), 5000);

        // Bob edits Alice's open channel; Alice sees his name, and his npub on hover.
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("plans")));
        const QString channel = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::openChannel(bob, channel));
        QVERIFY(UiTestHarness::seedRevision(bob, QStringLiteral("from bob\n")));
        auto *info = revisionInfo(alice);
        QTRY_VERIFY_WITH_TIMEOUT(
            info->text().startsWith(QStringLiteral("Last edited by Bob Builder")), 10000);
        QVERIFY2(info->toolTip().contains(npubOf(bob)), qPrintable(info->toolTip()));
        QVERIFY(!info->toolTip().contains(npubOf(alice)));
    }

    void aNameSetLaterShowsAfterF5()
    {
        // The app stays open all day: Bob names himself after Alice's app asked about him (and
        // found no profile); F5 shows his name without a restart.
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        auto *bob = harness.openSession(QStringLiteral("bob"));
        QVERIFY(alice && bob);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("plans")));
        const QString channel = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::openChannel(bob, channel));
        QVERIFY(UiTestHarness::seedRevision(bob, QStringLiteral("from bob\n")));
        auto *info = revisionInfo(alice);
        const QString bobHex = bob->services().connection->publicKeyHex();
        QTRY_VERIFY_WITH_TIMEOUT(alice->window()->canvasPane()->head()
                                     && alice->window()->canvasPane()->head()->author == bobHex,
                                 10000);
        QVERIFY(test::awaitTask(alice->services().profiles->fetch({bobHex}))); // asked: none
        QVERIFY2(info->text().contains(QStringLiteral("npub1")), qPrintable(info->text()));

        QVERIFY(test::awaitTask(
            bob->services().profiles->publishDisplayName(QStringLiteral("Bob Builder"))));
        // F5 is a window shortcut: it reaches Alice's window only while that window is the
        // active one, and Bob's window opened after hers.
        QVERIFY(UiTestHarness::activate(alice->window()));
        QTest::keyClick(alice->window(), Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(
            info->text().startsWith(QStringLiteral("Last edited by Bob Builder")), 10000);
    }

    void relativeTimesStayTrueWithTheExactTimeOnHover()
    {
        qint64 now = QDateTime::currentSecsSinceEpoch();
        ui::UiFormat::setClockForTesting([&now] { return now; });
        ui::RelativeTimeTicker::instance()->setInterval(std::chrono::milliseconds(20));
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("clock")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("tick\n")));
        auto *info = revisionInfo(alice);
        QTRY_VERIFY_WITH_TIMEOUT(info->text().endsWith(QStringLiteral("· just now")), 10000);
        const auto head = alice->window()->canvasPane()->head();
        QVERIFY(head);
        QVERIFY2(info->toolTip().contains(ui::UiFormat::revisionTime(head->createdAt)),
                 qPrintable(info->toolTip()));

        // The app stays open: the label moves on by itself.
        now += 10 * 60;
        QTRY_VERIFY_WITH_TIMEOUT(info->text().endsWith(QStringLiteral("· 10 min ago")), 5000);
        now += 3 * 3600;
        QTRY_VERIFY_WITH_TIMEOUT(info->text().endsWith(QStringLiteral("h ago")), 5000);

        auto *window = alice->window();
        QTest::keyClick(window, Qt::Key_H, Qt::ControlModifier);
        auto *model = window->historyPanel()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() >= 1, 10000);
        QVERIFY(model->data(model->index(0), ui::HistoryModel::TimeRole)
                    .toString()
                    .endsWith(QStringLiteral("h ago")));
        QVERIFY(model->data(model->index(0), Qt::ToolTipRole)
                    .toString()
                    .contains(ui::UiFormat::revisionTime(head->createdAt)));
    }

    void datesFollowTheUiLanguageNotTheSystemLocale()
    {
        // A German system locale under an English UI (no German translation loaded).
        const QLocale system = QLocale();
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        const qint64 october = QDateTime(QDate(2026, 10, 14), QTime(9, 30)).toSecsSinceEpoch();
        const QString shown = ui::UiFormat::revisionTime(october);
        QLocale::setDefault(system);
        QVERIFY2(shown.contains(QStringLiteral("Oct")), qPrintable(shown));
        QVERIFY2(!shown.contains(QStringLiteral("Okt")), qPrintable(shown));
    }
};

QTEST_MAIN(PeopleTimeTest)
#include "test_people_time.moc"
