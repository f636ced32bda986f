// Accessibility and external automation (issue 19): what a screen reader or an AT-SPI script
// reads and does through the accessible interfaces Qt exports — live label text, History toggled
// from its toolbar button, rows selected without moving the current index, the Edit action's
// name, the canvas as a document, named banner icons and announced notices; and (issue 30) every
// control's accessible name unique within its window.

#include "UiTestHarness.h"

#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/models/HistoryModel.h"

#include <QAccessible>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>
#include <QToolBar>

using namespace buzz;
using test::UiTestHarness;

namespace {

QAccessibleInterface *accessible(QObject *object)
{
    return QAccessible::queryAccessibleInterface(object);
}

QString accessibleName(QObject *object)
{
    auto *iface = accessible(object);
    return iface ? iface->text(QAccessible::Name) : QString();
}

QWidget *toolButton(ui::MainWindow *window, const char *actionName)
{
    auto *toolbar = window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    auto *action = window->findChild<QAction *>(QLatin1String(actionName));
    return toolbar && action ? toolbar->widgetForAction(action) : nullptr;
}

// Roles an AT-SPI script addresses by name to act on them or read them.
bool isControl(QAccessible::Role role)
{
    switch (role) {
    case QAccessible::Button:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::ComboBox:
    case QAccessible::EditableText:
    case QAccessible::List:
    case QAccessible::Table:
    case QAccessible::Tree:
    case QAccessible::PageTabList:
    case QAccessible::SpinBox:
    case QAccessible::Slider:
    case QAccessible::ButtonMenu:
    case QAccessible::ButtonDropDown:
    case QAccessible::Document:
    case QAccessible::ToolBar:
    case QAccessible::Link:
        return true;
    default:
        return false;
    }
}

// The names shared by more than one control of `window` (shown or hidden: hidden notices show
// together later), with the objectNames that share each; a control without a name counts too.
QStringList duplicateNames(QWidget *window)
{
    QMap<QString, QStringList> byName;
    QStringList unnamed;
    const QList<QWidget *> widgets = window->findChildren<QWidget *>();
    for (QWidget *widget : widgets) {
        if (widget->window() != window)
            continue; // a dialog or menu is a window of its own
        QAccessibleInterface *iface = accessible(widget);
        if (!iface || !isControl(iface->role()))
            continue;
        const QString name = iface->text(QAccessible::Name);
        if (name.isEmpty())
            unnamed << widget->objectName() + QLatin1Char('(') + widget->metaObject()->className()
                    + QLatin1Char(')');
        else
            byName[name] << widget->objectName();
    }
    QStringList problems;
    for (auto it = byName.cbegin(); it != byName.cend(); ++it) {
        if (it.value().size() > 1)
            problems
                << QStringLiteral("\"%1\": %2").arg(it.key(), it.value().join(QLatin1Char(',')));
    }
    if (!unnamed.isEmpty())
        problems << QStringLiteral("no name: ") + unnamed.join(QLatin1Char(','));
    return problems;
}

} // namespace

class AccessibilityTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void labelsExposeWhatTheyShow()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("reader"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("notes")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\ntwo\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\nthree\nfour\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head() && pane->head()->content == QStringLiteral("one\nthree\nfour\n"));

        auto *info = window->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
        QTRY_VERIFY(info->text().startsWith(QStringLiteral("Last edited by ")));
        QCOMPARE(accessibleName(info), info->text());
        QCOMPARE(accessible(info)->text(QAccessible::Description),
                 QStringLiteral("Current revision"));

        auto *relay = window->findChild<QLabel *>(QStringLiteral("relayStatusLabel"));
        QTRY_VERIFY(relay->text().endsWith(QStringLiteral("Connected")));
        QCOMPARE(accessibleName(relay), relay->text());
        QCOMPARE(accessible(relay)->text(QAccessible::Description), QStringLiteral("Relay status"));

        // The save state follows the edit, in its accessible name too.
        auto *saveState = window->findChild<QLabel *>(QStringLiteral("saveStateLabel"));
        QCOMPARE(accessible(saveState)->text(QAccessible::Description),
                 QStringLiteral("Save state"));
        pane->startEditing();
        window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"))
            ->insertPlainText(QStringLiteral("typed "));
        QTRY_COMPARE(saveState->text(), QStringLiteral("Unsaved changes"));
        QCOMPARE(accessibleName(saveState), QStringLiteral("Unsaved changes"));
        pane->save();
        QTRY_COMPARE_WITH_TIMEOUT(saveState->text(), QStringLiteral("Saved"), 10000);
        QCOMPARE(accessibleName(saveState), QStringLiteral("Saved"));

        // The diff summary of the selected revision (the first: its own change added everything).
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        list->setCurrentIndex(model->index(2));
        auto *summary = window->findChild<QLabel *>(QStringLiteral("diffSummaryLabel"));
        QVERIFY2(summary->text().startsWith(QStringLiteral("+2 lines: the canvas's first")),
                 qPrintable(summary->text()));
        QCOMPARE(accessibleName(summary), summary->text());
        QCOMPARE(accessible(summary)->text(QAccessible::Description),
                 QStringLiteral("Difference summary"));
    }

    void toolbarTogglesAndSelectionsWorkThroughAccessibility()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("driver"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("first")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("old text\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("new text\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head() && pane->head()->content == QStringLiteral("new text\n"));

        // History's toolbar button toggled the way AT-SPI does: the dock follows both ways.
        QWidget *historyButton = toolButton(window, "historyAction");
        QVERIFY(historyButton);
        auto *actions = accessible(historyButton)->actionInterface();
        QVERIFY(actions);
        QVERIFY(actions->actionNames().contains(QAccessibleActionInterface::toggleAction()));
        actions->doAction(QAccessibleActionInterface::toggleAction());
        QTRY_VERIFY(window->historyDock()->isVisible());
        actions->doAction(QAccessibleActionInterface::toggleAction());
        QTRY_VERIFY(!window->historyDock()->isVisible());
        actions->doAction(QAccessibleActionInterface::toggleAction());
        QTRY_VERIFY(window->historyDock()->isVisible());

        // Selecting the older revision through the table interface enables Restore.
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 10000);
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        auto *table = accessible(list)->tableInterface();
        QVERIFY(table);
        QVERIFY(table->selectRow(1));
        auto *restore = window->findChild<QPushButton *>(QStringLiteral("restoreButton"));
        QTRY_VERIFY(restore->isEnabled());
        QCOMPARE(list->currentIndex().row(), 1);

        // The same for the channel list: selecting another channel opens it.
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("second")));
        auto *channels = window->findChild<QListView *>(QStringLiteral("channelList"));
        QTRY_COMPARE(channels->model()->rowCount(), 2);
        const int firstRow = channels->currentIndex().row() == 0 ? 1 : 0;
        QVERIFY(accessible(channels)->tableInterface()->selectRow(firstRow));
        QTRY_COMPARE(pane->channel().name, QStringLiteral("first"));

        // Edit keeps its name while editing (and is checked).
        QWidget *editButton = toolButton(window, "editAction");
        QCOMPARE(accessibleName(editButton), QStringLiteral("Edit"));
        QTRY_VERIFY(pane->isHeadKnown());
        accessible(editButton)
            ->actionInterface()
            ->doAction(QAccessibleActionInterface::toggleAction());
        QTRY_VERIFY(pane->isEditing());
        QCOMPARE(accessibleName(editButton), QStringLiteral("Edit"));
        QVERIFY(accessible(editButton)->state().checked);
        accessible(editButton)
            ->actionInterface()
            ->doAction(QAccessibleActionInterface::toggleAction());
        QTRY_VERIFY(!pane->isEditing());
        QVERIFY(!accessible(editButton)->state().checked);
    }

    void everyControlHasAUniqueName()
    {
        // AT-SPI tools address a control by its accessible name: within a window no two controls
        // share one (eight "Close message" buttons, one per notice, could not be told apart).
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("names"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("names")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("two\n")));
        auto *window = session->window();
        window->historyDock()->show();
        window->searchDock()->show();
        window->diagnosticsDock()->show();
        QTRY_VERIFY(window->historyPanel()->model()->rowCount() >= 2);
        QStringList problems = duplicateNames(window);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        // While editing, with the find bar open, too.
        window->canvasPane()->startEditing();
        QTRY_VERIFY(window->canvasPane()->isEditing());
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        problems = duplicateNames(window);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        // The dialogs the main window opens are windows of their own.
        const auto checkDialog = [](const QString &name) {
            QWidget *dialog = UiTestHarness::waitForTopLevel(name);
            if (!dialog)
                return QStringList {name + QStringLiteral(" did not open")};
            const QStringList found = duplicateNames(dialog);
            dialog->close();
            return found;
        };
        window->showSettings();
        problems = checkDialog(QStringLiteral("settingsDialog"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        window->showIdentity();
        problems = checkDialog(QStringLiteral("identityDialog"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QTest::mouseClick(window->findChild<QPushButton *>(QStringLiteral("createChannelButton")),
                          Qt::LeftButton);
        problems = checkDialog(QStringLiteral("createChannelDialog"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void canvasIsADocumentAndNoticesAreAnnounced()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("doc"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("doc")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("# Title\n\nSome *text*.\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head() && pane->head()->content.startsWith(QStringLiteral("# Title")));

        auto *view = window->findChild<QWidget *>(QStringLiteral("canvasView"));
        QVERIFY(view);
        QAccessibleInterface *canvas = accessible(view);
        QCOMPARE(canvas->role(), QAccessible::Document);
        QCOMPARE(canvas->text(QAccessible::Name), QStringLiteral("Canvas"));
        QVERIFY(canvas->state().readOnly);
        auto *text = canvas->textInterface();
        QVERIFY(text);
        QTRY_COMPARE(text->text(0, text->characterCount()), QStringLiteral("Title\nSome text."));
        int start = 0;
        int end = 0;
        QCOMPARE(text->textAtOffset(7, QAccessible::WordBoundary, &start, &end),
                 QStringLiteral("Some"));
        text->setSelection(0, 0, 5);
        QCOMPARE(text->selectionCount(), 1);

        // A notice is an alert (screen readers announce an alert as it shows) named by its
        // message, with a named icon. (The Alert event itself needs a live bridge: the AT-SPI check
        // finds the alert on the bus.)
        pane->startEditing();
        window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"))
            ->insertPlainText(QStringLiteral("more "));
        pane->save();
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("saveNotice"));
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Saved."), 10000);
        QCOMPARE(accessible(notice)->role(), QAccessible::AlertMessage);
        QCOMPARE(accessibleName(notice), QStringLiteral("Saved."));
        QCOMPARE(accessibleName(notice->findChild<QLabel *>(QStringLiteral("saveNoticeIcon"))),
                 QStringLiteral("Success"));
    }
};

QTEST_MAIN(AccessibilityTest)
#include "test_accessibility.moc"
