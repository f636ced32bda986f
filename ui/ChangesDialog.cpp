#include "ui/ChangesDialog.h"

#include "canvas/Merge3.h"
#include "ui/MonospaceFont.h"

#include <QColor>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QVBoxLayout>

namespace buzz::ui {

ChangesDialog::ChangesDialog(const QString &title, const canvas::LiveChangeTracker::Change &change,
                             QWidget *parent)
    : QDialog(parent)
    , m_summary(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("canvasChangesDialog"));
    setAccessibleName(title);
    setWindowTitle(title);
    m_summary->setObjectName(QStringLiteral("canvasChangesSummary"));
    m_summary->setText(
        tr("%1 lines added, %2 removed").arg(change.addedLines.size()).arg(change.removedLines));
    m_summary->setAccessibleName(m_summary->text());
    m_text->setObjectName(QStringLiteral("canvasChangesText"));
    m_text->setAccessibleName(tr("Changed lines"));
    m_text->setReadOnly(true);
    m_text->setFont(MonospaceFont::font());
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);

    QStringList lines;
    QList<canvas::DiffLine::Op> ops;
    for (const canvas::DiffLine &line : canvas::Merge3::lineDiff(
             change.from ? change.from->content : QString(), change.to.content)) {
        const QString sign = line.op == canvas::DiffLine::Op::Added ? QStringLiteral("+ ")
            : line.op == canvas::DiffLine::Op::Removed              ? QStringLiteral("\u2212 ")
                                                                    : QStringLiteral("  ");
        lines.append(sign + line.text);
        ops.append(line.op);
    }
    m_text->setPlainText(lines.join(QLatin1Char('\n')));
    // Colour besides the sign, never instead of it.
    QList<QTextEdit::ExtraSelection> marks;
    QTextBlock block = m_text->document()->begin();
    for (int i = 0; i < ops.size() && block.isValid(); ++i, block = block.next()) {
        if (ops[i] == canvas::DiffLine::Op::Same)
            continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.format.setBackground(ops[i] == canvas::DiffLine::Op::Added ? QColor(0xd4, 0xf5, 0xd4)
                                                                        : QColor(0xfa, 0xd7, 0xd7));
        mark.format.setForeground(Qt::black);
        marks.append(mark);
    }
    m_text->setExtraSelections(marks);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->setObjectName(QStringLiteral("canvasChangesButtons"));
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("canvasChangesClose"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(640, 420);
}

QString ChangesDialog::diffText() const
{
    return m_text->toPlainText();
}

} // namespace buzz::ui
