#include "BuzzCanvasTestKit/AppDriver.h"

#include "app/desktop/DesktopSession.h"
#include "app/desktop/EmbeddedRelay.h"
#include "canvas/CanvasSession.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

namespace BuzzCanvasTestKit {

using buzz::desktop::DesktopSession;
using buzz::desktop::EmbeddedRelay;

struct AppDriver::Private
{
    Options options;
    QString error;
    std::unique_ptr<QTemporaryDir> throwawayProfile;
    std::unique_ptr<EmbeddedRelay> relay;
    std::unique_ptr<DesktopSession> session;

    buzz::ui::MainWindow *window() const { return session ? session->window() : nullptr; }
    buzz::ui::CanvasPane *pane() const { return window() ? window()->canvasPane() : nullptr; }

    // Waits until `condition` holds, processing events; else records what it waited for.
    template<class Condition>
    bool waitFor(const QString &what, Condition condition)
    {
        if (QTest::qWaitFor(condition, options.timeoutMs))
            return true;
        error =
            QStringLiteral("timed out after %1 ms waiting for %2").arg(options.timeoutMs).arg(what);
        return false;
    }

    bool fail(const QString &why)
    {
        error = why;
        return false;
    }

    // A widget of this driver's window or one of its dialogs (another driver's window has the
    // same names).
    template<class T = QWidget>
    T *find(const QString &objectName) const
    {
        QWidget *main = window();
        if (!main)
            return nullptr;
        if (auto *child = main->findChild<T *>(objectName))
            return child;
        for (QWidget *top : QApplication::topLevelWidgets()) {
            if (top->objectName() != objectName || !top->isVisible())
                continue;
            for (QWidget *up = top->parentWidget(); up; up = up->parentWidget()) {
                if (up == main)
                    return qobject_cast<T *>(top);
            }
        }
        return nullptr;
    }

    bool click(const QString &objectName)
    {
        QPointer<QAbstractButton> button;
        if (!waitFor(objectName + QStringLiteral(" to be enabled"), [&] {
                button = find<QAbstractButton>(objectName);
                return button && button->isVisible() && button->isEnabled();
            }))
            return false;
        QTest::mouseClick(button, Qt::LeftButton);
        return true;
    }

    bool waitSettled(buzz::canvas::CanvasSession::Operation operation, const QString &what)
    {
        buzz::ui::CanvasPane *canvas = pane();
        return waitFor(what, [canvas, operation] {
            const buzz::canvas::CanvasSession *session = canvas->session();
            if (!session || session->isBusy() || canvas->hasUnsavedChanges())
                return false;
            const auto &settled = session->lastSettled();
            return settled && settled->operation == operation && settled->outcome.isDurable();
        });
    }
};

AppDriver::AppDriver()
    : AppDriver(Options {})
{ }

AppDriver::AppDriver(Options options)
    : d(std::make_unique<Private>())
{
    d->options = std::move(options);
}

AppDriver::~AppDriver()
{
    d->session.reset();
    if (d->relay)
        d->relay->stop();
}

bool AppDriver::start()
{
    if (d->session)
        return d->fail(QStringLiteral("already started"));
    QString url = d->options.relayUrl;
    if (url.isEmpty()) {
        d->relay = std::make_unique<EmbeddedRelay>();
        if (!d->relay->start(QString()))
            return d->fail(QStringLiteral("the relay did not start: ") + d->relay->errorString());
        url = d->relay->url();
    }
    QString profile = d->options.profileDir;
    if (profile.isEmpty()) {
        d->throwawayProfile = std::make_unique<QTemporaryDir>(
            QDir::temp().filePath(QStringLiteral("buzz-canvas-testkit-XXXXXX")));
        if (!d->throwawayProfile->isValid())
            return d->fail(QStringLiteral("no temporary profile directory: ")
                           + d->throwawayProfile->errorString());
        profile = d->throwawayProfile->path();
    }
    DesktopSession::Options session;
    session.profileDir = profile;
    session.relayUrl = url;
    session.relaySource = QStringLiteral("--relay");
    d->session = std::make_unique<DesktopSession>(std::move(session));

    std::optional<bool> started;
    QEventLoop loop;
    QObject guard;
    QCoro::connect(d->session->start(), &guard, [&](bool ok) {
        started = ok;
        loop.quit();
    });
    if (!started)
        loop.exec();
    if (!*started)
        return d->fail(QStringLiteral("the app did not start: ") + d->session->errorString());
    d->window()->activateWindow();
    return d->waitFor(QStringLiteral("createChannelButton to be enabled (connected)"), [this] {
        auto *create = d->find<QPushButton>(QStringLiteral("createChannelButton"));
        return create && create->isEnabled();
    });
}

QString AppDriver::errorString() const
{
    return d->error;
}

QString AppDriver::relayUrl() const
{
    return d->session ? d->session->relayUrl() : QString();
}

QString AppDriver::profileDir() const
{
    return d->session ? d->session->dataDir() : QString();
}

QMainWindow *AppDriver::window() const
{
    return d->window();
}

QWidget *AppDriver::widget(const QString &objectName) const
{
    return d->find(objectName);
}

bool AppDriver::createChannel(const QString &name)
{
    if (!d->click(QStringLiteral("createChannelButton")))
        return false;
    QPointer<QLineEdit> edit;
    if (!d->waitFor(QStringLiteral("createChannelDialog"), [&] {
            edit = d->find<QLineEdit>(QStringLiteral("channelNameEdit"));
            return edit && edit->isVisible();
        }))
        return false;
    edit->clear();
    QTest::keyClicks(edit, name);
    if (!d->click(QStringLiteral("createChannelConfirmButton")))
        return false;
    buzz::ui::CanvasPane *canvas = d->pane();
    return d->waitFor(QStringLiteral("#%1 to open").arg(name), [canvas, name] {
        return canvas->channel().name == name && canvas->isHeadKnown();
    });
}

bool AppDriver::openChannel(const QString &name)
{
    // F5 reads the channel list again: a channel created meanwhile by someone else is listed.
    if (auto *reload = d->window()->findChild<QAction *>(QStringLiteral("reloadAction")))
        reload->trigger();
    auto *list = d->find<QListView>(QStringLiteral("channelList"));
    if (!list)
        return d->fail(QStringLiteral("no channelList"));
    const QString label = QStringLiteral("# ") + name;
    int row = -1;
    if (!d->waitFor(QStringLiteral("#%1 in channelList").arg(name), [&] {
            for (row = 0; row < list->model()->rowCount(); ++row) {
                const QString shown = list->model()->index(row, 0).data().toString();
                if (shown == label || shown.startsWith(label + QLatin1Char(' ')))
                    return true;
            }
            return false;
        }))
        return false;
    const QModelIndex index = list->model()->index(row, 0);
    list->scrollTo(index);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(index).center());
    buzz::ui::CanvasPane *canvas = d->pane();
    return d->waitFor(QStringLiteral("#%1 to open").arg(name), [canvas, name] {
        return canvas->channel().name == name && canvas->isHeadKnown();
    });
}

bool AppDriver::joinChannel()
{
    if (!d->click(QStringLiteral("readOnlyNoticeJoinButton")))
        return false;
    buzz::ui::CanvasPane *canvas = d->pane();
    return d->waitFor(QStringLiteral("membership"),
                      [canvas] { return canvas->channel().isMember; });
}

bool AppDriver::startEditing()
{
    if (d->pane()->isEditing())
        return true;
    if (!d->click(QStringLiteral("editButton")))
        return false;
    return d->waitFor(QStringLiteral("canvasEditor"), [this] {
        auto *editor = d->find<QPlainTextEdit>(QStringLiteral("canvasEditor"));
        return editor && editor->isVisible() && d->pane()->isEditing();
    });
}

bool AppDriver::typeText(const QString &text)
{
    auto *editor = d->find<QPlainTextEdit>(QStringLiteral("canvasEditor"));
    if (!editor || !editor->isVisible())
        return d->fail(QStringLiteral("canvasEditor is not open (startEditing first)"));
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    for (const QChar c : text) {
        if (c == QLatin1Char('\n'))
            QTest::keyClick(editor, Qt::Key_Return);
        else
            QTest::keyClicks(editor, QString(c));
    }
    return true;
}

bool AppDriver::replaceText(const QString &text)
{
    auto *editor = d->find<QPlainTextEdit>(QStringLiteral("canvasEditor"));
    if (!editor || !editor->isVisible())
        return d->fail(QStringLiteral("canvasEditor is not open (startEditing first)"));
    editor->setFocus();
    editor->selectAll();
    editor->insertPlainText(text); // as a paste: one undo step
    return editor->toPlainText() == text
        || d->fail(QStringLiteral("canvasEditor holds something else after the paste"));
}

bool AppDriver::save()
{
    if (!d->click(QStringLiteral("saveButton")))
        return false;
    if (!d->waitSettled(buzz::canvas::CanvasSession::Operation::Save,
                        QStringLiteral("the save to land"))) {
        if (d->find(QStringLiteral("conflictDialog")))
            d->error += QStringLiteral(" (a conflict: use saveExpectingConflict)");
        return false;
    }
    return true;
}

bool AppDriver::stopEditing()
{
    if (!d->pane()->isEditing())
        return true;
    if (!d->click(QStringLiteral("cancelEditButton")))
        return false;
    return d->waitFor(QStringLiteral("the editor to close"),
                      [this] { return !d->pane()->isEditing(); });
}

QString AppDriver::saveState() const
{
    auto *label = d->find<QLabel>(QStringLiteral("saveStateLabel"));
    return label ? label->text() : QString();
}

QString AppDriver::canvasText() const
{
    const auto head = d->pane() ? d->pane()->head() : std::nullopt;
    return head ? head->content : QString();
}

QString AppDriver::editorText() const
{
    auto *editor = d->find<QPlainTextEdit>(QStringLiteral("canvasEditor"));
    return editor ? editor->toPlainText() : QString();
}

bool AppDriver::waitForCanvasText(const QString &text)
{
    return d->waitFor(QStringLiteral("the canvas to read \"%1\"").arg(text.left(40)),
                      [this, text] { return canvasText() == text; });
}

bool AppDriver::openHistory()
{
    auto *dock = d->find<QDockWidget>(QStringLiteral("historyDock"));
    auto *action = d->window()->findChild<QAction *>(QStringLiteral("historyAction"));
    if (!dock || !action)
        return d->fail(QStringLiteral("no historyDock / historyAction"));
    if (!dock->isVisible())
        action->trigger();
    return d->waitFor(QStringLiteral("historyList"), [this] {
        auto *list = d->find<QListView>(QStringLiteral("historyList"));
        return list && list->isVisible();
    });
}

int AppDriver::revisionCount() const
{
    auto *list = d->find<QListView>(QStringLiteral("historyList"));
    return list && list->model() ? list->model()->rowCount() : 0;
}

bool AppDriver::waitForRevisionCount(int atLeast)
{
    return d->waitFor(QStringLiteral("%1 revisions in historyList").arg(atLeast),
                      [this, atLeast] { return revisionCount() >= atLeast; });
}

bool AppDriver::selectRevision(int row)
{
    auto *list = d->find<QListView>(QStringLiteral("historyList"));
    if (!list || !waitForRevisionCount(row + 1))
        return list ? false : d->fail(QStringLiteral("no historyList (openHistory first)"));
    const QModelIndex index = list->model()->index(row, 0);
    list->scrollTo(index);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(index).center());
    return d->waitFor(QStringLiteral("revision %1 selected").arg(row),
                      [list, row] { return list->currentIndex().row() == row; });
}

bool AppDriver::restoreSelectedRevision()
{
    if (!d->click(QStringLiteral("restoreButton"))
        || !d->click(QStringLiteral("restoreConfirmButton")))
        return false;
    return d->waitSettled(buzz::canvas::CanvasSession::Operation::Restore,
                          QStringLiteral("the restore to land"));
}

bool AppDriver::saveExpectingConflict()
{
    if (!d->click(QStringLiteral("saveButton")))
        return false;
    return d->waitFor(QStringLiteral("conflictDialog"), [this] {
        QWidget *dialog = d->find(QStringLiteral("conflictDialog"));
        return dialog && dialog->isVisible();
    });
}

QString AppDriver::conflictResultText() const
{
    auto *result = d->find<QPlainTextEdit>(QStringLiteral("mergedResultEdit"));
    return result ? result->toPlainText() : QString();
}

bool AppDriver::resolveConflict(Resolution resolution)
{
    const QString button = resolution == Resolution::Merge ? QStringLiteral("acceptMergeButton")
        : resolution == Resolution::KeepMine               ? QStringLiteral("keepMineButton")
                                                           : QStringLiteral("takeTheirsButton");
    if (!d->click(button))
        return false;
    if (!d->waitFor(QStringLiteral("conflictDialog to close"), [this] {
            QWidget *dialog = d->find(QStringLiteral("conflictDialog"));
            return !dialog || !dialog->isVisible();
        }))
        return false;
    // Taking theirs saves nothing; the other two save the result against theirs.
    if (resolution == Resolution::TakeTheirs)
        return d->waitFor(QStringLiteral("the session to settle"), [this] {
            return d->pane()->session() && !d->pane()->session()->isBusy();
        });
    return d->waitSettled(buzz::canvas::CanvasSession::Operation::Save,
                          QStringLiteral("the resolved save to land"));
}

} // namespace BuzzCanvasTestKit
