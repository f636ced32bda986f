// Layout and polish (issue 19): the channel dock keeps its width across edit mode, the window can
// go narrow in edit mode with History open and starts inside the screen, the last channel and the
// layout come back, one app per profile, a visible focus frame on the canvas, one tooltip style,
// the channel description shown, the New Channel dialog not clipped.

#include "UiTestHarness.h"

#include "canvas/ChannelService.h"
#include "ui/CanvasPane.h"
#include "ui/ChannelListPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/ChannelListModel.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScreen>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>

using namespace buzz;
using test::UiTestHarness;

class LayoutTest : public QObject
{
    Q_OBJECT

    static bool createWithAbout(desktop::DesktopSession *session, const QString &name,
                                const QString &about)
    {
        canvas::CreateChannelRequest request;
        request.name = name;
        request.about = about;
        session->window()->channelList()->createChannel(request);
        auto *pane = session->window()->canvasPane();
        return QTest::qWaitFor(
            [pane, name] { return pane->channel().name == name && pane->isHeadKnown(); }, 10000);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void editModeKeepsTheDocksAndTheWindowCanGoNarrow()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("layout"));
        QVERIFY(session);
        QVERIFY(createWithAbout(session, QStringLiteral("a-channel-with-a-rather-long-name"),
                                QStringLiteral("Where the team keeps its plans.")));
        auto *window = session->window();
        auto *pane = window->canvasPane();

        // The default size fits the (offscreen, 800×600) screen.
        const QRect available = window->screen()->availableGeometry();
        QVERIFY2(window->width() <= available.width() && window->height() <= available.height(),
                 qPrintable(QStringLiteral("%1×%2 on %3×%4")
                                .arg(window->width())
                                .arg(window->height())
                                .arg(available.width())
                                .arg(available.height())));

        // A laptop-sized window with History open: edit mode used to take the room from the docks.
        window->resize(960, 700);
        window->historyDock()->show();
        auto *channels = window->findChild<QDockWidget *>(QStringLiteral("channelsDock"));
        QTRY_VERIFY(channels->width() > 150);
        const int dockWidth = channels->width();
        for (int round = 0; round < 3; ++round) {
            pane->startEditing();
            QTRY_VERIFY(pane->isEditing());
            QTest::qWait(0); // let the layout settle after the switch
            QTRY_COMPARE(channels->width(), dockWidth);
            pane->cancel();
            QTRY_VERIFY(!pane->isEditing());
            QTRY_COMPARE(channels->width(), dockWidth);
        }

        // Editing with History open, the window goes well below the old 833 px minimum.
        pane->startEditing();
        QTRY_VERIFY(pane->isEditing());
        const int minimum = window->minimumSizeHint().width();
        qInfo("minimum width in edit mode with History open: %d px", minimum);
        QVERIFY2(minimum <= 700, qPrintable(QString::number(minimum)));
        window->resize(700, 600);
        QTRY_VERIFY(window->width() <= 710);
        pane->cancel();

        // The description is on screen, and the channel name wraps rather than widening.
        auto *about = window->findChild<QLabel *>(QStringLiteral("channelDescriptionLabel"));
        QVERIFY(about && about->isVisible());
        QCOMPARE(about->text(), QStringLiteral("Where the team keeps its plans."));
    }

    void lastChannelAndLayoutComeBackAndOneAppPerProfile()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("returning"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("alpha")));
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("zeta")));
        auto *window = session->window();
        auto *list = window->findChild<QListView *>(QStringLiteral("channelList"));
        QTRY_COMPARE(list->model()->rowCount(), 2);
        // Open the channel that is NOT the first row (the one a fresh start would pick).
        const QString second =
            list->model()->index(1, 0).data(ui::ChannelListModel::ChannelIdRole).toString();
        window->openChannel(second);
        QTRY_COMPARE(window->canvasPane()->channelId(), second);
        window->historyDock()->show();

        // A second app on the same profile refuses to start and says why.
        desktop::DesktopSession::Options options;
        options.profileDir = session->dataDir();
        options.relayUrl = harness.relayUrl();
        options.showWindow = false;
        desktop::DesktopSession twin(options);
        QVERIFY(!test::awaitTask(twin.start()));
        QVERIFY2(twin.errorString().contains(QStringLiteral("already running with this profile")),
                 qPrintable(twin.errorString()));

        harness.closeSession(session);
        auto *again = harness.openSession(QStringLiteral("returning"));
        QVERIFY(again);
        QTRY_COMPARE_WITH_TIMEOUT(again->window()->canvasPane()->channelId(), second, 10000);
        QVERIFY(again->window()->historyDock()->isVisible());
    }

    void focusFrameTooltipsAndTheNewChannelDialog()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("polish"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("polish")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("text\n")));
        auto *window = session->window();
        QTRY_VERIFY(window->canvasPane()->head().has_value());

        // The focused canvas view draws a frame in the highlight colour; unfocused it does not.
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY(view->isVisible());
        const QColor highlight = view->palette().color(QPalette::Active, QPalette::Highlight);
        const QPoint edge(0, view->height() / 2);
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        QCOMPARE(view->grab().toImage().pixelColor(edge), highlight);
        window->findChild<QLineEdit *>(QStringLiteral("channelFilterEdit"))->setFocus();
        QTRY_VERIFY(!view->hasFocus());
        QVERIFY(view->grab().toImage().pixelColor(edge) != highlight);

        // Every toolbar action names its shortcut the same way, and so do the header's buttons.
        auto *toolbar = window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        for (QAction *action : toolbar->actions()) {
            if (action->isSeparator())
                continue;
            const QString keys = action->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(action->toolTip().endsWith(QStringLiteral(" (") + keys + QLatin1Char(')')),
                     qPrintable(action->objectName() + QStringLiteral(": ") + action->toolTip()));
        }
        auto *edit = window->findChild<QAction *>(QStringLiteral("editAction"));
        QCOMPARE(window->findChild<QPushButton *>(QStringLiteral("editButton"))->toolTip(),
                 edit->toolTip());

        // New Channel: the dialog is at least as large as its contents ask for.
        window->findChild<QAction *>(QStringLiteral("newChannelAction"))->trigger();
        QWidget *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("createChannelDialog"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(dialog->width() >= dialog->minimumSizeHint().width());
        QVERIFY(dialog->height() >= dialog->minimumSizeHint().height());
        for (const char *name : {"channelNameEdit", "channelAboutEdit", "channelPrivateCheck",
                                 "createChannelConfirmButton", "createChannelCancelButton"}) {
            auto *child = dialog->findChild<QWidget *>(QLatin1String(name));
            QVERIFY(child && child->isVisible());
            QVERIFY2(child->width() >= child->minimumSizeHint().width(), name);
            QVERIFY2(
                dialog->rect().contains(QRect(child->mapTo(dialog, QPoint(0, 0)), child->size())),
                name);
        }
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("channelNameEdit"));
        QVERIFY(name->width() >= name->fontMetrics().horizontalAdvance(name->placeholderText()));
        dialog->close();
    }
};

QTEST_MAIN(LayoutTest)
#include "test_layout.moc"
