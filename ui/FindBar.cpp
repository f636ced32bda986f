#include "ui/FindBar.h"

#include "ui/UiFormat.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>

namespace buzz::ui {

FindBar::FindBar(QPlainTextEdit *editor, QWidget *parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_find(new QLineEdit(this))
    , m_replace(new QLineEdit(this))
    , m_case(new QCheckBox(tr("Match &case"), this))
    , m_status(new QLabel(this))
    , m_previous(new QPushButton(tr("&Previous"), this))
    , m_next(new QPushButton(tr("&Next"), this))
    , m_replaceOne(new QPushButton(tr("&Replace"), this))
    , m_replaceAll(new QPushButton(tr("Replace &all"), this))
    , m_close(new QToolButton(this))
    , m_replaceRow(new QWidget(this))
{
    setObjectName(QStringLiteral("canvasFindBar"));
    m_find->setObjectName(QStringLiteral("findTextEdit"));
    m_find->setAccessibleName(tr("Find in the canvas"));
    m_find->setPlaceholderText(tr("Find in the canvas"));
    m_find->setClearButtonEnabled(true);
    m_replace->setObjectName(QStringLiteral("replaceTextEdit"));
    m_replace->setAccessibleName(tr("Replace with"));
    m_replace->setPlaceholderText(tr("Replace with"));
    m_case->setObjectName(QStringLiteral("findCaseCheck"));
    m_case->setAccessibleName(tr("Match case"));
    m_status->setObjectName(QStringLiteral("findStatusLabel"));
    m_status->setAccessibleDescription(tr("Find result"));
    m_previous->setObjectName(QStringLiteral("findPreviousButton"));
    m_previous->setAccessibleName(tr("Find previous"));
    m_previous->setToolTip(UiFormat::withShortcut(tr("Find previous"), QKeySequence::FindPrevious));
    m_next->setObjectName(QStringLiteral("findNextButton"));
    m_next->setAccessibleName(tr("Find next"));
    m_next->setToolTip(UiFormat::withShortcut(tr("Find next"), QKeySequence::FindNext));
    m_replaceOne->setObjectName(QStringLiteral("replaceButton"));
    m_replaceOne->setAccessibleName(tr("Replace"));
    m_replaceAll->setObjectName(QStringLiteral("replaceAllButton"));
    m_replaceAll->setAccessibleName(tr("Replace all"));
    m_close->setObjectName(QStringLiteral("findCloseButton"));
    m_close->setAccessibleName(tr("Close find bar"));
    m_close->setToolTip(UiFormat::withShortcut(tr("Close find bar"), QKeySequence(Qt::Key_Escape)));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    for (QPushButton *button : {m_previous, m_next, m_replaceOne, m_replaceAll})
        button->setAutoDefault(false);

    connect(m_next, &QPushButton::clicked, this, [this] { findNext(false); });
    connect(m_previous, &QPushButton::clicked, this, [this] { findNext(true); });
    connect(m_replaceOne, &QPushButton::clicked, this, &FindBar::replaceCurrent);
    connect(m_replaceAll, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(m_close, &QToolButton::clicked, this, &FindBar::close);
    connect(m_find, &QLineEdit::textChanged, this, [this] { setStatus({}); });
    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);

    auto *replaceLayout = new QHBoxLayout(m_replaceRow);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(m_replace, 1);
    replaceLayout->addWidget(m_replaceOne);
    replaceLayout->addWidget(m_replaceAll);
    auto *findRow = new QHBoxLayout;
    findRow->addWidget(m_find, 1);
    findRow->addWidget(m_previous);
    findRow->addWidget(m_next);
    findRow->addWidget(m_case);
    findRow->addWidget(m_status);
    findRow->addWidget(m_close);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);
    hide();
}

void FindBar::open(bool replace)
{
    const QString selected = m_editor->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
        m_find->setText(selected);
    m_replaceRow->setVisible(replace);
    show();
    (replace && !m_find->text().isEmpty() ? m_replace : m_find)->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

void FindBar::close()
{
    hide();
    m_editor->setFocus(Qt::OtherFocusReason);
}

QString FindBar::statusText() const
{
    return m_status->text();
}

void FindBar::setStatus(const QString &text)
{
    m_status->setText(text);
}

bool FindBar::findNext(bool backward)
{
    const QString needle = m_find->text();
    if (needle.isEmpty())
        return false;
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (m_case->isChecked())
        flags |= QTextDocument::FindCaseSensitively;
    if (m_editor->find(needle, flags)) {
        setStatus({});
        return true;
    }
    // Wrap around: from the other end of the document.
    QTextCursor cursor = m_editor->textCursor();
    cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
    const QTextCursor found = m_editor->document()->find(needle, cursor, flags);
    if (found.isNull()) {
        setStatus(tr("Not found"));
        return false;
    }
    m_editor->setTextCursor(found);
    setStatus(tr("Wrapped around"));
    return true;
}

bool FindBar::matchesSelection() const
{
    const QString selected = m_editor->textCursor().selectedText();
    return !selected.isEmpty()
        && selected.compare(m_find->text(),
                            m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive)
        == 0;
}

bool FindBar::replaceCurrent()
{
    if (m_editor->isReadOnly() || m_find->text().isEmpty())
        return false;
    if (!matchesSelection() && !findNext(false))
        return false;
    m_editor->textCursor().insertText(m_replace->text());
    findNext(false);
    return true;
}

int FindBar::replaceAll()
{
    const QString needle = m_find->text();
    if (m_editor->isReadOnly() || needle.isEmpty())
        return 0;
    QTextDocument::FindFlags flags;
    if (m_case->isChecked())
        flags |= QTextDocument::FindCaseSensitively;
    QTextDocument *document = m_editor->document();
    QTextCursor edit(document);
    edit.beginEditBlock(); // one Ctrl+Z undoes them all
    int count = 0;
    QTextCursor found = document->find(needle, 0, flags);
    while (!found.isNull()) {
        found.insertText(m_replace->text());
        ++count;
        found = document->find(needle, found, flags);
    }
    edit.endEditBlock();
    setStatus(count == 0 ? tr("Not found") : tr("%n replaced", nullptr, count));
    return count;
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    const bool escape = key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier;
    const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
    if (!escape && !enter && !key->matches(QKeySequence::Find))
        return QWidget::eventFilter(watched, event);
    // The bar's own keys: not the window's Esc (leave editing) or Ctrl+F (global search).
    event->accept();
    if (event->type() == QEvent::KeyPress) {
        if (escape)
            close();
        else if (enter && watched == m_replace)
            replaceCurrent();
        else if (enter)
            findNext(key->modifiers() & Qt::ShiftModifier);
        else
            m_find->selectAll();
    }
    return true;
}

} // namespace buzz::ui
