#include "ui/MarkdownEditKeys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace buzz::ui {

namespace {

// A list item's start: indentation, the marker ("-", "*", "+", "1." or "1)"), the spaces after it
// and a task box. A marker needs a space after it ("---" is a rule, "**b**" emphasis).
const QRegularExpression &listItem()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^([ \t]*)([-*+]|\d{1,9}[.)])( +)(\[[ xX]\] +)?)"));
    return re;
}

QRegularExpressionMatch matchItem(const QTextBlock &block)
{
    return listItem().match(block.text());
}

// How far the item's text starts from the line's start ("  - a": 4), where a nested item goes.
int contentColumn(const QRegularExpressionMatch &item)
{
    return int(item.capturedLength(1) + item.capturedLength(2) + item.capturedLength(3));
}

// The item above `block` this one would nest under (Tab) or its parent's indentation (Shift+Tab):
// walks up over deeper items and their text, stops where the list ends.
struct Neighbours
{
    int siblingColumn = -1; // content column of the previous item at the same indentation
    int parentIndent = 0; // indentation of the nearest item less indented
};

Neighbours neighboursOf(const QTextBlock &block, int indent)
{
    Neighbours found;
    for (QTextBlock above = block.previous(); above.isValid(); above = above.previous()) {
        const QString text = above.text();
        const QRegularExpressionMatch item = matchItem(above);
        if (!item.hasMatch()) {
            if (!text.trimmed().isEmpty() && !text.front().isSpace())
                break; // a paragraph at the margin: the list ended
            continue;
        }
        const int aboveIndent = int(item.capturedLength(1));
        if (aboveIndent == indent) {
            found.siblingColumn = contentColumn(item);
            continue; // the parent is further up
        }
        if (aboveIndent < indent) {
            found.parentIndent = aboveIndent;
            break;
        }
    }
    return found;
}

// The selection without the whitespace at its ends: "**word **" is not bold in Markdown.
std::pair<int, int> trimmedSelection(const QTextCursor &cursor)
{
    const QTextDocument *document = cursor.document();
    int start = cursor.selectionStart();
    int end = cursor.selectionEnd();
    while (start < end && document->characterAt(start).isSpace())
        ++start;
    while (end > start && document->characterAt(end - 1).isSpace())
        --end;
    if (start == end && cursor.hasSelection())
        start = end = cursor.position(); // only whitespace was selected
    return {start, end};
}

// The number of '*' next to position, going left (step -1) or right (+1), within the line.
int starRun(const QTextDocument *document, int position, int step)
{
    int count = 0;
    for (int at = step < 0 ? position - 1 : position; at >= 0 && at < document->characterCount()
         && document->characterAt(at) == QLatin1Char('*');
         at += step)
        ++count;
    return count;
}

} // namespace

MarkdownEditKeys::MarkdownEditKeys(QPlainTextEdit *editor)
    : QObject(editor)
    , m_editor(editor)
{
    editor->installEventFilter(this);
}

QKeySequence MarkdownEditKeys::boldShortcut()
{
    return QKeySequence(Qt::CTRL | Qt::Key_B);
}

QKeySequence MarkdownEditKeys::italicShortcut()
{
    return QKeySequence(Qt::CTRL | Qt::Key_I);
}

QKeySequence MarkdownEditKeys::linkShortcut()
{
    return QKeySequence(Qt::CTRL | Qt::Key_K);
}

QList<std::pair<QString, QString>> MarkdownEditKeys::describedKeys()
{
    const auto text = [](const QKeySequence &keys) {
        return keys.toString(QKeySequence::NativeText);
    };
    return {
        {tr("Bold (while editing)"), text(boldShortcut())},
        {tr("Italic (while editing)"), text(italicShortcut())},
        {tr("Link (while editing)"), text(linkShortcut())},
        {tr("Continue a list; on an empty item, end it"), text(QKeySequence(Qt::Key_Return))},
        {tr("Indent / outdent a list item"),
         text(QKeySequence(Qt::Key_Tab)) + QStringLiteral(" / ")
             + text(QKeySequence(Qt::SHIFT | Qt::Key_Tab))},
    };
}

bool MarkdownEditKeys::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_editor || m_editor->isReadOnly()
        || (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress))
        return false;
    auto *key = static_cast<QKeyEvent *>(event);
    const QKeySequence keys(key->keyCombination());
    const bool bold = keys == boldShortcut();
    const bool italic = keys == italicShortcut();
    const bool link = keys == linkShortcut();
    if (event->type() == QEvent::ShortcutOverride) {
        if (!bold && !italic && !link)
            return false;
        event->accept(); // the editor's ("delete to end of line" on X11 is Ctrl+K too)
        return true;
    }
    if (bold || italic) {
        toggleWrap(bold ? QStringLiteral("**") : QStringLiteral("*"));
        return true;
    }
    if (link) {
        makeLink();
        return true;
    }
    const Qt::KeyboardModifiers modifiers = key->modifiers() & ~Qt::KeypadModifier;
    if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
        && modifiers == Qt::NoModifier)
        return continueList();
    if (key->key() == Qt::Key_Tab && modifiers == Qt::NoModifier)
        return indentListItems(false);
    if (key->key() == Qt::Key_Backtab
        || (key->key() == Qt::Key_Tab && modifiers == Qt::ShiftModifier))
        return indentListItems(true);
    return false;
}

bool MarkdownEditKeys::continueList()
{
    QTextCursor cursor = m_editor->textCursor();
    const QTextBlock block = cursor.block();
    if (m_editor->document()->findBlock(cursor.anchor()) != block)
        return false;
    const QRegularExpressionMatch item = matchItem(block);
    if (!item.hasMatch())
        return false;
    const int prefix = int(item.capturedLength(0));
    if (cursor.selectionStart() - block.position() < prefix)
        return false; // Enter before the text: a plain new line above the item
    cursor.beginEditBlock();
    if (block.text().mid(prefix).trimmed().isEmpty()) {
        // Enter on an empty item ends the list: the marker goes, the empty line stays.
        cursor.setPosition(block.position());
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    } else {
        QString marker = item.captured(2);
        if (marker.front().isDigit())
            marker = QString::number(marker.chopped(1).toLongLong() + 1) + marker.back();
        QString next = item.captured(1) + marker + item.captured(3);
        if (item.capturedLength(4) > 0)
            next += QStringLiteral("[ ]") + item.captured(4).mid(3); // a new task is open
        cursor.insertText(QStringLiteral("\n") + next);
    }
    cursor.endEditBlock();
    m_editor->setTextCursor(cursor);
    m_editor->ensureCursorVisible();
    return true;
}

void MarkdownEditKeys::toggleWrap(const QString &marker)
{
    QTextDocument *document = m_editor->document();
    QTextCursor cursor = m_editor->textCursor();
    const auto [start, end] = trimmedSelection(cursor);
    const int size = int(marker.size());
    const int left = starRun(document, start, -1);
    const int right = starRun(document, end, +1);
    // "***x***" is bold and italic: Ctrl+B takes "**", Ctrl+I "*" from it.
    const bool wrapped =
        start < end && (left == size || left == 3) && (right == size || right == 3);
    cursor.beginEditBlock();
    if (wrapped) {
        cursor.setPosition(end);
        cursor.setPosition(end + size, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        cursor.setPosition(start - size);
        cursor.setPosition(start, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    } else {
        cursor.setPosition(end);
        cursor.insertText(marker);
        cursor.setPosition(start);
        cursor.insertText(marker);
    }
    cursor.endEditBlock();
    const int shift = wrapped ? -size : size;
    cursor.setPosition(start + shift);
    cursor.setPosition(end + shift, QTextCursor::KeepAnchor);
    m_editor->setTextCursor(cursor);
}

void MarkdownEditKeys::makeLink()
{
    QTextCursor cursor = m_editor->textCursor();
    const auto [start, end] = trimmedSelection(cursor);
    const QString address = tr("url", "placeholder address of a new Markdown link");
    cursor.beginEditBlock();
    cursor.setPosition(end);
    cursor.insertText(QStringLiteral("](") + address + QStringLiteral(")"));
    cursor.setPosition(start);
    cursor.insertText(QStringLiteral("["));
    cursor.endEditBlock();
    // The address is selected: typing or pasting it replaces the placeholder.
    const int addressStart = end + 3; // after "[" and "]("
    cursor.setPosition(addressStart);
    cursor.setPosition(addressStart + int(address.size()), QTextCursor::KeepAnchor);
    m_editor->setTextCursor(cursor);
}

bool MarkdownEditKeys::indentListItems(bool outdent)
{
    QTextDocument *document = m_editor->document();
    const QTextCursor caret = m_editor->textCursor();
    if (!matchItem(caret.block()).hasMatch())
        return false; // not in a list: Tab types a tab, Shift+Tab moves focus, as before
    const QTextBlock first = document->findBlock(caret.selectionStart());
    QTextBlock last = document->findBlock(caret.selectionEnd());
    if (last != first && caret.selectionEnd() == last.position())
        last = last.previous(); // a selection ending at a line's start leaves that line alone
    QTextCursor edit(document);
    edit.beginEditBlock();
    for (QTextBlock block = first; block.isValid(); block = block.next()) {
        const QRegularExpressionMatch item = matchItem(block);
        if (item.hasMatch()) {
            const int indent = int(item.capturedLength(1));
            const Neighbours around = neighboursOf(block, indent);
            edit.setPosition(block.position());
            if (!outdent) {
                const int target =
                    around.siblingColumn > indent ? around.siblingColumn : contentColumn(item);
                edit.insertText(QString(target - indent, QLatin1Char(' ')));
            } else if (indent > 0) {
                edit.setPosition(block.position() + indent - around.parentIndent,
                                 QTextCursor::KeepAnchor);
                edit.removeSelectedText();
            }
        }
        if (block == last)
            break;
    }
    edit.endEditBlock();
    return true;
}

} // namespace buzz::ui
