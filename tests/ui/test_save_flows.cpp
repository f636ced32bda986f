// No typed word is lost around saving, as a user hits it: typing while the relay is frozen
// mid-save, Retry after a lost answer, a restore whose answer is lost, and the two clicks
// (Reload, then Discard) that must each ask before an edit is thrown away. The relay sits behind
// a RecordingProxy that freezes or loses requests; everything is driven by objectName.

#include "RecordingProxy.h"
#include "UiTestHarness.h"

#include "canvas/DraftStore.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/RestoreDialog.h"
#include "ui/models/HistoryModel.h"

#include <QDockWidget>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::RecordingProxy;
using test::UiTestHarness;

class SaveFlowsTest : public QObject
{
    Q_OBJECT

    struct Open
    {
        UiTestHarness harness;
        desktop::DesktopSession *session = nullptr;
        ui::MainWindow *window = nullptr;
        ui::CanvasPane *pane = nullptr;
        QPlainTextEdit *editor = nullptr;
    };

    // A channel with `text` as its canvas, open in a window whose relay is behind the proxy.
    static bool open(Open &open, const QString &text)
    {
        if (!open.harness.startProxiedRelay())
            return false;
        open.session = open.harness.openSession(QStringLiteral("writer"));
        if (!open.session || !UiTestHarness::createChannel(open.session, QStringLiteral("notes"))
            || !UiTestHarness::seedRevision(open.session, text))
            return false;
        open.window = open.session->window();
        open.pane = open.window->canvasPane();
        open.editor = open.window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        return QTest::qWaitFor(
            [&] { return open.pane->head() && open.pane->head()->content == text; }, 10000);
    }

    static ui::NoticeBanner *banner(ui::MainWindow *window, const QString &name)
    {
        return window->findChild<ui::NoticeBanner *>(name);
    }

    // Starts editing with Ctrl+E and types `text` at the end, key by key.
    static void typeAtEnd(Open &open, const QString &text)
    {
        if (!open.pane->isEditing())
            QTest::keyClick(open.window, Qt::Key_E, Qt::ControlModifier);
        open.editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(open.editor, text);
    }

    static std::vector<canvas::Draft> drafts(Open &open)
    {
        const auto &services = open.session->services();
        return services.drafts->draftsForChannel(services.draftRelayKey, services.draftCommunity,
                                                 open.pane->channelId());
    }

    static bool draftContains(Open &open, const QString &text)
    {
        for (const auto &draft : drafts(open)) {
            if (draft.content.contains(text))
                return true;
        }
        return false;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void typingWhileTheRelayIsFrozenMidSaveIsKept()
    {
        Open o;
        QVERIFY(open(o, QStringLiteral("plan\n")));
        typeAtEnd(o, QStringLiteral("step one"));
        o.harness.proxy()->injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        QTest::keyClick(o.editor, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(o.harness.proxy()->isHolding(), 5000);
        QVERIFY(o.pane->isSaving());
        QTest::keyClicks(o.editor, QStringLiteral(" and two")); // the relay is frozen
        QCOMPARE(o.editor->toPlainText(), QStringLiteral("plan\nstep one and two"));
        o.harness.proxy()->release();

        auto *notice = banner(o.window, QStringLiteral("saveNotice"));
        QTRY_COMPARE_WITH_TIMEOUT(
            notice->text(), QStringLiteral("Saved. Your later changes are not saved yet."), 10000);
        QVERIFY(o.pane->isEditing());
        QCOMPARE(o.editor->toPlainText(), QStringLiteral("plan\nstep one and two"));
        QCOMPARE(o.pane->head()->content, QStringLiteral("plan\nstep one"));
        QCOMPARE(o.pane->editBase()->eventId, o.pane->head()->eventId); // rebased on what landed
        QVERIFY(draftContains(o, QStringLiteral("and two")));

        QTest::keyClick(o.editor, Qt::Key_S, Qt::ControlModifier);
        QVERIFY(UiTestHarness::waitSaved(o.pane));
        QCOMPARE(o.pane->head()->content, QStringLiteral("plan\nstep one and two"));
        QTRY_VERIFY(drafts(o).empty());
    }

    void retryAfterALostAnswerKeepsWhatWasTypedSince()
    {
        Open o;
        QVERIFY(open(o, QStringLiteral("agenda\n")));
        typeAtEnd(o, QStringLiteral("first"));
        // The save lands but its answer is lost, and so is the existence check.
        o.harness.proxy()->injectFault(RecordingProxy::Fault::DropResponse,
                                       RecordingProxy::eventsPost());
        o.harness.proxy()->injectFault(RecordingProxy::Fault::DropRequest,
                                       RecordingProxy::queryContaining("\"ids\""));
        QTest::keyClick(o.editor, Qt::Key_S, Qt::ControlModifier);
        auto *notice = banner(o.window, QStringLiteral("saveNotice"));
        QTRY_VERIFY_WITH_TIMEOUT(
            notice->isVisible()
                && notice->text().startsWith(
                    QStringLiteral("Your save is waiting for the relay: we couldn't confirm")),
            10000);
        QPushButton *retry = notice->action(QStringLiteral("Retry"));
        QVERIFY(retry && retry->isVisible());
        QVERIFY(o.pane->isEditing());

        QTest::keyClicks(o.editor, QStringLiteral(" second")); // typed before clicking Retry
        QTest::mouseClick(retry, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            notice->text(), QStringLiteral("Saved. Your later changes are not saved yet."), 10000);
        QVERIFY(o.pane->isEditing());
        QCOMPARE(o.editor->toPlainText(), QStringLiteral("agenda\nfirst second"));
        QCOMPARE(o.pane->head()->content, QStringLiteral("agenda\nfirst")); // what was sent
        QCOMPARE(o.pane->editBase()->eventId, o.pane->head()->eventId);
        QVERIFY(draftContains(o, QStringLiteral("first second")));
    }

    void restoreWithALostAnswerOffersRetryAndDoesNotConflictWithItself()
    {
        Open o;
        QVERIFY(open(o, QStringLiteral("v1\n")));
        QVERIFY(UiTestHarness::seedRevision(o.session, QStringLiteral("v2\n")));
        QVERIFY(UiTestHarness::seedRevision(o.session, QStringLiteral("v3\n")));
        QTRY_COMPARE(o.pane->head()->content, QStringLiteral("v3\n"));
        o.window->historyDock()->show();
        auto *model = o.window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        auto *list = o.window->findChild<QListView *>(QStringLiteral("historyList"));
        const auto select = [&](int row) {
            const QModelIndex index = model->index(row);
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                              list->visualRect(index).center());
            return list->currentIndex().row() == row;
        };
        const auto confirmRestore = [&] {
            QTest::mouseClick(o.window->findChild<QPushButton *>(QStringLiteral("restoreButton")),
                              Qt::LeftButton);
            auto *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog"));
            if (!dialog)
                return false;
            QTest::mouseClick(
                dialog->findChild<QPushButton *>(QStringLiteral("restoreConfirmButton")),
                Qt::LeftButton);
            return true;
        };
        QVERIFY(select(2)); // v1
        // The restore lands but its answer is lost, and so is the existence check after it (not
        // the read of the target by id before it).
        RecordingProxy *proxy = o.harness.proxy();
        const std::size_t posted = proxy->forwarded("/events").size();
        proxy->injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        proxy->injectFault(RecordingProxy::Fault::DropRequest,
                           [proxy, posted](const RecordingProxy::Request &request) {
                               return request.path == "/query" && request.body.contains("\"ids\"")
                                   && proxy->forwarded("/events").size() > posted;
                           });
        QVERIFY(confirmRestore());
        auto *notice = banner(o.window, QStringLiteral("historyNotice"));
        QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible()
                                     && notice->text().startsWith(
                                         QStringLiteral("We couldn't confirm whether the restore")),
                                 10000);
        QPushButton *retry = notice->action(QStringLiteral("Retry"));
        QVERIFY(retry && retry->isVisible());
        QVERIFY(!o.window->findChild<QPushButton *>(QStringLiteral("restoreButton"))->isEnabled());
        QTest::mouseClick(retry, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Restored."), 10000);
        QCOMPARE(o.pane->head()->content, QStringLiteral("v1\n"));

        // Restoring again starts from our own restore: no conflict with ourselves.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 10000);
        QCOMPARE(model->revisionAt(2)->content, QStringLiteral("v2\n"));
        QVERIFY(select(2));
        QVERIFY(confirmRestore());
        QTRY_COMPARE_WITH_TIMEOUT(o.pane->head()->content, QStringLiteral("v2\n"), 10000);
        QCOMPARE(notice->text(), QStringLiteral("Restored."));
    }

    void reloadInTheLiveBannerAsksBeforeLeavingTheEdit()
    {
        Open o;
        QVERIFY(open(o, QStringLiteral("shared\n")));
        typeAtEnd(o, QStringLiteral("my careful words"));
        // Someone saves while I edit: the live banner offers Reload.
        QVERIFY(UiTestHarness::seedRevision(o.session, QStringLiteral("shared\ntheirs\n")));
        auto *live = banner(o.window, QStringLiteral("liveChangeBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(live->isVisible(), 10000);
        QTest::mouseClick(live->action(QStringLiteral("Reload")), Qt::LeftButton);
        QVERIFY(o.pane->isEditing()); // nothing happened yet: the question comes first
        auto *reloadConfirm = banner(o.window, QStringLiteral("reloadConfirmBanner"));
        QVERIFY(reloadConfirm && reloadConfirm->isVisible());
        QTest::mouseClick(reloadConfirm->action(QStringLiteral("Keep")), Qt::LeftButton);
        QVERIFY(!reloadConfirm->isVisible());
        QVERIFY(o.pane->isEditing());
        QCOMPARE(o.editor->toPlainText(), QStringLiteral("shared\nmy careful words"));

        // Confirmed: the latest revision is shown, my text is offered as a draft.
        QTest::mouseClick(live->action(QStringLiteral("Reload")), Qt::LeftButton);
        QTest::mouseClick(reloadConfirm->action(QStringLiteral("Reload")), Qt::LeftButton);
        QVERIFY(!o.pane->isEditing());
        QCOMPARE(o.pane->head()->content, QStringLiteral("shared\ntheirs\n"));
        auto *draftBanner = banner(o.window, QStringLiteral("draftBanner"));
        QTRY_VERIFY(draftBanner->isVisible());
        QVERIFY(draftContains(o, QStringLiteral("my careful words")));
        QTest::mouseClick(draftBanner->action(QStringLiteral("Restore")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(o.pane->isEditing(), 10000);
        QCOMPARE(o.editor->toPlainText(), QStringLiteral("shared\nmy careful words"));
    }

    void draftDiscardAsksFirst()
    {
        Open o;
        QVERIFY(open(o, QStringLiteral("notes\n")));
        const QString channel = o.pane->channelId();
        typeAtEnd(o, QStringLiteral("words worth keeping"));
        // Away and back: the edit is kept as a draft and offered.
        QVERIFY(UiTestHarness::createChannel(o.session, QStringLiteral("elsewhere")));
        QVERIFY(UiTestHarness::openChannel(o.session, channel));
        auto *draftBanner = banner(o.window, QStringLiteral("draftBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(draftBanner->isVisible(), 10000);
        QVERIFY(draftContains(o, QStringLiteral("words worth keeping")));

        QTest::mouseClick(draftBanner->action(QStringLiteral("Discard")), Qt::LeftButton);
        QVERIFY(draftContains(o, QStringLiteral("words worth keeping"))); // not yet
        auto *confirm = banner(o.window, QStringLiteral("draftDiscardConfirmBanner"));
        QVERIFY(confirm && confirm->isVisible());
        QTest::mouseClick(confirm->action(QStringLiteral("Keep")), Qt::LeftButton);
        QVERIFY(draftContains(o, QStringLiteral("words worth keeping")));
        QVERIFY(draftBanner->isVisible());

        // Confirmed: only now is it gone.
        QTest::mouseClick(draftBanner->action(QStringLiteral("Discard")), Qt::LeftButton);
        QTest::mouseClick(confirm->action(QStringLiteral("Discard")), Qt::LeftButton);
        QVERIFY(!draftContains(o, QStringLiteral("words worth keeping")));
        QVERIFY(!draftBanner->isVisible());
    }
};

QTEST_MAIN(SaveFlowsTest)
#include "test_save_flows.moc"
