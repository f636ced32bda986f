#include "ui/CanvasViewAccessible.h"

#include "ui/CanvasView.h"

#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace buzz::ui {

CanvasViewAccessible::CanvasViewAccessible(CanvasView *view)
    : QAccessibleWidget(view, QAccessible::Document)
{ }

QAccessibleInterface *CanvasViewAccessible::factory(const QString &className, QObject *object)
{
    if (className == QLatin1String(CanvasView::staticMetaObject.className()) && object
        && object->isWidgetType())
        return new CanvasViewAccessible(static_cast<CanvasView *>(object));
    return nullptr;
}

CanvasView *CanvasViewAccessible::view() const
{
    return static_cast<CanvasView *>(widget());
}

QString CanvasViewAccessible::plainText() const
{
    // toPlainText, not toRawText: paragraph separators (U+2029) read as newlines, one for one.
    return view()->document()->toPlainText();
}

void *CanvasViewAccessible::interface_cast(QAccessible::InterfaceType type)
{
    if (type == QAccessible::TextInterface)
        return static_cast<QAccessibleTextInterface *>(this);
    return QAccessibleWidget::interface_cast(type);
}

QAccessible::State CanvasViewAccessible::state() const
{
    QAccessible::State state = QAccessibleWidget::state();
    state.readOnly = true;
    state.multiLine = true;
    state.selectableText = true;
    return state;
}

QString CanvasViewAccessible::text(QAccessible::Text t) const
{
    if (t == QAccessible::Value)
        return plainText();
    return QAccessibleWidget::text(t);
}

void CanvasViewAccessible::selection(int selectionIndex, int *startOffset, int *endOffset) const
{
    *startOffset = *endOffset = 0;
    const QTextCursor cursor = view()->textCursor();
    if (selectionIndex == 0 && cursor.hasSelection()) {
        *startOffset = cursor.selectionStart();
        *endOffset = cursor.selectionEnd();
    }
}

int CanvasViewAccessible::selectionCount() const
{
    return view()->textCursor().hasSelection() ? 1 : 0;
}

void CanvasViewAccessible::addSelection(int startOffset, int endOffset)
{
    setSelection(0, startOffset, endOffset);
}

void CanvasViewAccessible::removeSelection(int selectionIndex)
{
    if (selectionIndex != 0)
        return;
    QTextCursor cursor = view()->textCursor();
    cursor.clearSelection();
    view()->setTextCursor(cursor);
}

void CanvasViewAccessible::setSelection(int selectionIndex, int startOffset, int endOffset)
{
    if (selectionIndex != 0)
        return;
    const int count = characterCount();
    QTextCursor cursor(view()->document());
    cursor.setPosition(qBound(0, startOffset, count));
    cursor.setPosition(qBound(0, endOffset, count), QTextCursor::KeepAnchor);
    view()->setTextCursor(cursor);
}

int CanvasViewAccessible::cursorPosition() const
{
    return view()->textCursor().position();
}

void CanvasViewAccessible::setCursorPosition(int position)
{
    QTextCursor cursor(view()->document());
    cursor.setPosition(qBound(0, position, characterCount()));
    view()->setTextCursor(cursor);
}

QString CanvasViewAccessible::text(int startOffset, int endOffset) const
{
    const QString all = plainText();
    if (endOffset < 0 || endOffset > all.size())
        endOffset = int(all.size());
    startOffset = qBound(0, startOffset, endOffset);
    return all.mid(startOffset, endOffset - startOffset);
}

int CanvasViewAccessible::characterCount() const
{
    // characterCount() counts the document's final paragraph separator, which is not text.
    return qMax(0, view()->document()->characterCount() - 1);
}

QRect CanvasViewAccessible::characterRect(int offset) const
{
    QTextCursor cursor(view()->document());
    cursor.setPosition(qBound(0, offset, characterCount()));
    QRect rect = view()->cursorRect(cursor);
    const QFontMetrics metrics(cursor.charFormat().font());
    const QString character = text(offset, offset + 1);
    rect.setWidth(character.isEmpty() ? 1 : metrics.horizontalAdvance(character));
    return QRect(view()->viewport()->mapToGlobal(rect.topLeft()), rect.size());
}

int CanvasViewAccessible::offsetAtPoint(const QPoint &point) const
{
    const QPoint local = view()->viewport()->mapFromGlobal(point);
    return view()->cursorForPosition(local).position();
}

void CanvasViewAccessible::scrollToSubstring(int startIndex, int endIndex)
{
    QTextCursor cursor(view()->document());
    cursor.setPosition(qBound(0, endIndex, characterCount()));
    view()->setTextCursor(cursor);
    view()->ensureCursorVisible();
    cursor.setPosition(qBound(0, startIndex, characterCount()));
    view()->setTextCursor(cursor);
    view()->ensureCursorVisible();
}

QString CanvasViewAccessible::attributes(int offset, int *startOffset, int *endOffset) const
{
    // No per-run attributes: the whole text is one run (enough for reading; styles are Markdown).
    Q_UNUSED(offset);
    *startOffset = 0;
    *endOffset = characterCount();
    return QString();
}

} // namespace buzz::ui
