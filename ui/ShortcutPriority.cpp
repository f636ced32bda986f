#include "ui/ShortcutPriority.h"

#include <QAction>
#include <QKeyEvent>
#include <QWidget>

namespace buzz::ui {

namespace {
const char *const kKeepsProperty = "buzzKeepsShortcuts";
} // namespace

ShortcutPriority::ShortcutPriority(QList<QAction *> actions, QObject *parent)
    : QObject(parent)
{
    for (QAction *action : actions)
        addAction(action);
}

void ShortcutPriority::addAction(QAction *action)
{
    m_actions.append(action);
}

void ShortcutPriority::watch(QWidget *widget, QList<QKeySequence> keeps)
{
    widget->setProperty(kKeepsProperty, QVariant::fromValue(keeps));
    widget->installEventFilter(this);
}

bool ShortcutPriority::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    auto *key = static_cast<QKeyEvent *>(event);
    const Qt::KeyboardModifiers modifiers =
        key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
    const bool functionKey = key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35;
    if (key->key() == Qt::Key_Escape || (!modifiers && !functionKey))
        return false; // typing, navigation and Esc stay the field's
    const QKeySequence pressed(key->keyCombination());
    for (const QKeySequence &kept :
         watched->property(kKeepsProperty).value<QList<QKeySequence>>()) {
        if (kept.matches(pressed) == QKeySequence::ExactMatch)
            return false;
    }
    for (const QPointer<QAction> &action : m_actions) {
        if (action && action->isEnabled() && action->shortcuts().contains(pressed)) {
            // Filtered and unaccepted (whatever another filter did): the field never claims the
            // key, the shortcut fires.
            event->ignore();
            return true;
        }
    }
    return false;
}

} // namespace buzz::ui
