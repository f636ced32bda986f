#include "ui/DiffView.h"

#include "canvas/Merge3.h"
#include "ui/MonospaceFont.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace buzz::ui {

DiffView::DiffView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
{
    m_summary->setObjectName(QStringLiteral("diffSummaryLabel"));
    // Its accessible name is its text ("+N −M lines"), like any label; this says what it is.
    m_summary->setAccessibleDescription(tr("Difference summary"));
    m_summary->setWordWrap(true);
    m_text->setObjectName(QStringLiteral("diffText"));
    m_text->setAccessibleName(tr("Difference to the current canvas"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setFont(MonospaceFont::font());
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_text, 1);
    clear();
}

void DiffView::clear()
{
    showMessage(tr("Select a revision to see what it changed."));
}

void DiffView::showMessage(const QString &message)
{
    m_summary->setText(message);
    m_text->clear();
    m_text->hide();
}

void DiffView::showChange(const QString &parentText, const QString &revisionText, bool first)
{
    m_text->setAccessibleName(tr("Change made by this revision"));
    if (parentText == revisionText && !first) {
        showMessage(tr("This revision left the text as it was."));
        return;
    }
    const auto [added, removed] = render(parentText, revisionText);
    if (first)
        m_summary->setText(tr("+%1 lines: the canvas's first revision").arg(added));
    else if (added == 0 && removed == 0)
        m_summary->setText(tr("This revision changed only line endings or the final newline."));
    else
        m_summary->setText(tr("+%1 −%2 lines in this revision (+ added, − removed, against the "
                              "revision it replaced)")
                               .arg(added)
                               .arg(removed));
}

void DiffView::showComparison(const QString &revisionText, const QString &currentText)
{
    m_text->setAccessibleName(tr("Difference to the current canvas"));
    if (revisionText == currentText) {
        showMessage(tr("Identical to the current canvas."));
        return;
    }
    const auto [added, removed] = render(revisionText, currentText);
    if (added == 0 && removed == 0) {
        // Same lines, different bytes (line endings or a final newline).
        m_summary->setText(
            tr("Only line endings or the final newline differ from the current canvas."));
    } else {
        m_summary->setText(tr("+%1 −%2 lines from this revision to the current canvas (+ added "
                              "since, − removed since)")
                               .arg(added)
                               .arg(removed));
    }
}

std::pair<int, int> DiffView::render(const QString &from, const QString &to)
{
    // Added lines exist only in `to` ("+"), Removed only in `from` ("−").
    const auto lines = canvas::Merge3::lineDiff(from, to);
    int added = 0;
    int removed = 0;

    const QPalette palette = m_text->palette();
    const QColor base = palette.color(QPalette::Base);
    const auto tint = [&](QColor accent) {
        return QColor::fromRgbF(base.redF() * 0.78 + accent.redF() * 0.22,
                                base.greenF() * 0.78 + accent.greenF() * 0.22,
                                base.blueF() * 0.78 + accent.blueF() * 0.22);
    };
    QTextBlockFormat addedFormat;
    addedFormat.setBackground(tint(QColor(39, 174, 96)));
    QTextBlockFormat removedFormat;
    removedFormat.setBackground(tint(QColor(218, 68, 83)));
    QTextBlockFormat sameFormat;
    QTextCharFormat mutedText;
    mutedText.setForeground(palette.brush(QPalette::Disabled, QPalette::Text));
    QTextCharFormat normalText;

    m_text->clear();
    QTextCursor cursor(m_text->document());
    cursor.beginEditBlock();
    bool first = true;
    for (const canvas::DiffLine &line : lines) {
        const QTextBlockFormat *blockFormat = &sameFormat;
        const QTextCharFormat *charFormat = &mutedText;
        QString prefix = QStringLiteral("  ");
        if (line.op == canvas::DiffLine::Op::Added) {
            blockFormat = &addedFormat;
            charFormat = &normalText;
            prefix = QStringLiteral("+ ");
            ++added;
        } else if (line.op == canvas::DiffLine::Op::Removed) {
            blockFormat = &removedFormat;
            charFormat = &normalText;
            prefix = QStringLiteral("− ");
            ++removed;
        }
        if (first) {
            cursor.setBlockFormat(*blockFormat);
            first = false;
        } else {
            cursor.insertBlock(*blockFormat);
        }
        cursor.insertText(prefix + line.text, *charFormat);
    }
    cursor.endEditBlock();
    m_text->show();
    m_text->moveCursor(QTextCursor::Start);
    return {added, removed};
}

QString DiffView::summary() const
{
    return m_summary->text();
}

QString DiffView::diffText() const
{
    return m_text->isVisible() || !m_text->document()->isEmpty() ? m_text->toPlainText()
                                                                 : QString();
}

} // namespace buzz::ui
