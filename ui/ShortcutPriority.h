#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace buzz::ui {

// Text fields accept some of the window's shortcuts as editing keys of their own: with the X11/KDE
// key bindings QLineEdit and QPlainTextEdit take Ctrl+E as "end of line", so Ctrl+E typed in the
// channel filter never reached Edit. Watched widgets let the window's actions win for every
// shortcut with a modifier or a function key, except the keys a widget keeps on purpose (the
// editor keeps Ctrl+F for its own find bar). Esc is never taken: a field that has something to
// do with it (the filter clears itself) handles it, otherwise it falls through to the window.
class ShortcutPriority : public QObject
{
    Q_OBJECT
public:
    ShortcutPriority(QList<QAction *> actions, QObject *parent = nullptr);

    void watch(QWidget *widget, QList<QKeySequence> keeps = {});
    void addAction(QAction *action);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QList<QPointer<QAction>> m_actions;
};

} // namespace buzz::ui
