#include "ui/CanvasOutline.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/QuickPickDialog.h"

#include <QAbstractTextDocumentLayout>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

namespace buzz::ui {

namespace {

QString markdownOf(const CanvasPane *pane)
{
    if (pane->isEditing())
        return pane->editor()->text();
    const auto head = pane->head();
    return head ? head->content : QString();
}

// Caret to the line's start with the line at the top of the view: scrolled to the end first,
// making the caret visible again scrolls up just as far as the line.
void jumpToLine(QPlainTextEdit *edit, int line)
{
    const QTextBlock block = edit->document()->findBlockByNumber(line);
    if (!block.isValid())
        return;
    edit->moveCursor(QTextCursor::End);
    edit->ensureCursorVisible();
    edit->setTextCursor(QTextCursor(block));
    edit->ensureCursorVisible();
    edit->setFocus(Qt::ShortcutFocusReason);
}

} // namespace

QList<CanvasOutline::Heading> CanvasOutline::headings(const QString &markdown)
{
    static const QRegularExpression atx(
        QStringLiteral(R"(^ {0,3}(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$)"));
    static const QRegularExpression fence(QStringLiteral(R"(^ {0,3}(`{3,}|~{3,}))"));
    static const QRegularExpression setext(QStringLiteral(R"(^ {0,3}(=+|-+)[ \t]*$)"));
    // Lines a setext underline does not turn into a heading: list items, quotes, indented code.
    static const QRegularExpression notParagraph(
        QStringLiteral(R"(^( {4}|\t| {0,3}([-*+]|\d{1,9}[.)])([ \t]|$)| {0,3}>))"));
    QList<Heading> found;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    QString openFence; // the fence a code block started with, while in one
    bool paragraph = false; // the line above is paragraph text
    for (int i = 0; i < lines.size(); ++i) {
        const QString &line = lines[i];
        if (const auto match = fence.match(line); match.hasMatch()) {
            const QString marker = match.captured(1);
            if (openFence.isEmpty())
                openFence = marker;
            else if (marker.front() == openFence.front() && marker.size() >= openFence.size()
                     && line.trimmed() == marker)
                openFence.clear();
            paragraph = false;
            continue;
        }
        if (!openFence.isEmpty())
            continue;
        if (const auto match = atx.match(line); match.hasMatch()) {
            found.append({int(match.capturedLength(1)), match.captured(2).trimmed(), i});
            paragraph = false;
            continue;
        }
        if (paragraph && setext.match(line).hasMatch()) {
            const int level = line.trimmed().startsWith(QLatin1Char('=')) ? 1 : 2;
            found.append({level, lines[i - 1].trimmed(), i - 1});
            paragraph = false;
            continue;
        }
        paragraph = !line.trimmed().isEmpty() && !notParagraph.match(line).hasMatch();
    }
    return found;
}

void CanvasOutline::open(CanvasPane *pane)
{
    auto *dialog =
        new QuickPickDialog(QStringLiteral("outline"), tr("Go to Heading"), pane->window());
    dialog->setFilterLabel(tr("Filter headings"), tr("Type to filter the headings…"));
    dialog->setListName(tr("Headings"));
    QList<QuickPickDialog::Item> items;
    const QList<Heading> all = headings(markdownOf(pane));
    for (int i = 0; i < all.size(); ++i) {
        if (all[i].title.isEmpty())
            continue; // an empty "#" still counts in the rendered document's order
        items.append({QString(2 * (all[i].level - 1), QLatin1Char(' ')) + all[i].title,
                      QString::number(i), tr("Line %1").arg(all[i].line + 1)});
    }
    dialog->setItems(items, tr("This canvas has no headings (lines starting with #)."));
    QObject::connect(dialog, &QuickPickDialog::picked, pane,
                     [pane](const QString &key) { jumpTo(pane, key.toInt()); });
    dialog->open();
}

bool CanvasOutline::jumpTo(CanvasPane *pane, int ordinal)
{
    const QList<Heading> all = headings(markdownOf(pane));
    if (ordinal < 0 || ordinal >= all.size())
        return false;
    if (pane->isEditing()) {
        jumpToLine(pane->editor()->textEdit(), all[ordinal].line);
        return true;
    }
    auto *view = pane->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
    if (!view || !view->isVisible())
        return false;
    // The rendered document has the same headings in the same order (Qt's Markdown import marks
    // them with a heading level).
    QTextDocument *document = view->document();
    int seen = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || seen++ < ordinal)
            continue;
        view->setTextCursor(QTextCursor(block));
        const QRectF box = document->documentLayout()->blockBoundingRect(block);
        view->verticalScrollBar()->setValue(int(box.top()));
        view->setFocus(Qt::ShortcutFocusReason);
        return true;
    }
    return false;
}

} // namespace buzz::ui
