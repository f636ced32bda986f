#include "ui/CanvasEditor.h"

#include "canvas/CanvasWriteRules.h"
#include "ui/ContentBrowser.h"
#include "ui/FindBar.h"
#include "ui/MarkdownEditKeys.h"
#include "ui/MarkdownHighlighter.h"
#include "ui/MarkdownRenderer.h"
#include "ui/MonospaceFont.h"
#include "ui/SpellChecker.h"
#include "ui/UiFormat.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>

namespace buzz::ui {

namespace {

struct TextCounts
{
    qsizetype bytes = 0;
    qsizetype words = 0;
    qsizetype lines = 0;
};

// The UTF-8 size of document->toPlainText() (what a save sends), its words and lines, counted
// block by block: the copy toPlainText() makes is 2 MB for a 1 MB canvas, on every pause in
// typing, and it raised the app's peak memory when editing began.
TextCounts countText(const QTextDocument *document)
{
    TextCounts counts;
    counts.bytes = document->blockCount() - 1; // the '\n' between blocks
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        counts.bytes += canvas::CanvasWriteRules::utf8Size(text);
        // toPlainText() writes a no-break space (2 bytes) as ' ' and a line separator (3 bytes)
        // as '\n'.
        counts.bytes -= text.count(QChar::Nbsp) + 2 * text.count(QChar::LineSeparator);
        // A word is a run without spaces that has a letter or digit: "-", "#" and "**" are
        // Markdown, not words.
        bool inWord = false;
        bool hasLetter = false;
        for (const QChar c : text) {
            if (c.isSpace()) {
                counts.words += inWord && hasLetter;
                inWord = hasLetter = false;
            } else {
                inWord = true;
                hasLetter = hasLetter || c.isLetterOrNumber();
            }
        }
        counts.words += inWord && hasLetter;
    }
    // Lines as an editor numbers them, without the empty one after a final newline.
    counts.lines = document->blockCount();
    if (document->lastBlock().length() <= 1)
        --counts.lines;
    return counts;
}

} // namespace

CanvasEditor::CanvasEditor(QWidget *parent)
    : QWidget(parent)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_editor(new QPlainTextEdit(m_splitter))
    , m_preview(new ContentBrowser(m_splitter))
    , m_highlighter(new MarkdownHighlighter(m_editor->document()))
    , m_findBar(new FindBar(m_editor, this))
    , m_countsLabel(new QLabel(this))
    , m_sizeLabel(new QLabel(this))
{
    new MarkdownEditKeys(m_editor); // lists, bold, italic, links, list indent
    setObjectName(QStringLiteral("canvasEditorPane"));
    m_editor->setObjectName(QStringLiteral("canvasEditor"));
    m_editor->setAccessibleName(tr("Canvas Markdown editor"));
    m_editor->setPlaceholderText(tr("Write your canvas content in Markdown…"));
    QFont mono = MonospaceFont::font();
    m_editor->setFont(mono);
    m_editor->setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')) * 4);
    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_preview->setObjectName(QStringLiteral("canvasPreview"));
    m_preview->setAccessibleName(tr("Rendered preview"));
    m_preview->setFocusPolicy(Qt::ClickFocus);
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(m_preview);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setSizes({1, 1});
    m_sizeLabel->setObjectName(QStringLiteral("canvasSizeLabel"));
    m_sizeLabel->setAccessibleName(tr("Canvas size"));
    m_sizeLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_sizeLabel->setContentsMargins(0, 2, 0, 0);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_findBar);
    m_countsLabel->setObjectName(QStringLiteral("canvasCountsLabel"));
    m_countsLabel->setAccessibleName(tr("Words and lines"));
    m_countsLabel->setContentsMargins(0, 2, 12, 0);
    auto *counts = new QHBoxLayout;
    counts->setContentsMargins(0, 0, 0, 0);
    counts->addStretch(1);
    counts->addWidget(m_countsLabel);
    counts->addWidget(m_sizeLabel);
    layout->addLayout(counts);
    m_editor->installEventFilter(this); // Ctrl+F, Ctrl+R, F3 open and drive the find bar
    m_editor->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_editor, &QPlainTextEdit::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu *menu = createContextMenu(at);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_editor->viewport()->mapToGlobal(at));
    });
    m_sizeTimer.setSingleShot(true);
    m_sizeTimer.setInterval(200);
    connect(&m_sizeTimer, &QTimer::timeout, this, &CanvasEditor::refreshSizeNow);

    m_previewTimer.setSingleShot(true);
    connect(&m_previewTimer, &QTimer::timeout, this, &CanvasEditor::refreshPreviewNow);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        schedulePreview();
        m_sizeTimer.start();
        emit textEdited();
    });
}

QList<QKeySequence> CanvasEditor::ownShortcuts()
{
    QList<QKeySequence> keys;
    for (auto key : {QKeySequence::Find, QKeySequence::FindNext, QKeySequence::FindPrevious})
        keys += QKeySequence::keyBindings(key);
    keys += replaceShortcut();
    return keys;
}

QKeySequence CanvasEditor::replaceShortcut()
{
    // Kate's Ctrl+R, not QKeySequence::Replace: outside KDE that is Ctrl+H, the window's History.
    return QKeySequence(Qt::CTRL | Qt::Key_R);
}

bool CanvasEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_editor
        || (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress))
        return QWidget::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    const bool find = key->matches(QKeySequence::Find);
    const bool replace = QKeySequence(key->keyCombination()) == replaceShortcut();
    const bool next = key->matches(QKeySequence::FindNext);
    const bool previous = key->matches(QKeySequence::FindPrevious);
    if (!find && !replace && !next && !previous)
        return QWidget::eventFilter(watched, event);
    event->accept(); // the editor's, not the window's Search
    if (event->type() == QEvent::KeyPress) {
        if (find || replace || m_findBar->isHidden())
            m_findBar->open(replace);
        else
            m_findBar->findNext(previous);
    }
    return true;
}

void CanvasEditor::loadText(const QString &text)
{
    m_editor->setPlainText(text);
    m_editor->document()->clearUndoRedoStacks();
    m_editor->moveCursor(QTextCursor::Start);
    refreshPreviewNow();
    refreshSizeNow();
}

void CanvasEditor::refreshSizeNow()
{
    using Rules = canvas::CanvasWriteRules;
    m_sizeTimer.stop();
    const TextCounts counts = countText(m_editor->document());
    const qsizetype bytes = counts.bytes;
    const QString countsText = tr("%n words", nullptr, int(counts.words)) + QStringLiteral(" · ")
        + tr("%n lines", nullptr, int(counts.lines));
    m_countsLabel->setText(countsText);
    m_countsLabel->setAccessibleDescription(countsText);
    const QLocale locale = UiFormat::locale();
    const QString size = bytes < 1024
        ? tr("%1 bytes").arg(bytes)
        : locale.formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
    const QString limit =
        locale.formattedDataSize(Rules::kMaxContentBytes, 0, QLocale::DataSizeIecFormat);
    QString text;
    QString colour;
    if (bytes > Rules::kMaxContentBytes) {
        text = tr("%1 — over the relay's limit of %2: shorten it to save").arg(size, limit);
        colour = QStringLiteral("#da4453");
    } else {
        text = tr("%1 of %2").arg(size, limit);
        if (bytes * 10 > Rules::kMaxContentBytes * 9)
            colour = QStringLiteral("#f67400"); // within 10 % of the limit
    }
    m_sizeLabel->setText(text);
    m_sizeLabel->setStyleSheet(colour.isEmpty() ? QString()
                                                : QStringLiteral("color: %1;").arg(colour));
    m_sizeLabel->setAccessibleDescription(text);
}

void CanvasEditor::replaceText(const QString &text)
{
    QTextCursor cursor(m_editor->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    cursor.endEditBlock();
}

QString CanvasEditor::text() const
{
    return m_editor->toPlainText();
}

void CanvasEditor::setReadOnly(bool readOnly)
{
    m_editor->setReadOnly(readOnly);
}

void CanvasEditor::setPreviewVisible(bool visible)
{
    m_preview->setVisible(visible);
    if (visible)
        refreshPreviewNow();
}

bool CanvasEditor::isPreviewVisible() const
{
    return !m_preview->isHidden();
}

void CanvasEditor::schedulePreview()
{
    if (m_preview->isHidden() || m_editor->document()->characterCount() > kRenderLimit)
        return;
    // Rendering costs roughly linear time in the document size: wait longer for big documents so
    // the preview never competes with keystrokes.
    const int size = m_editor->document()->characterCount();
    m_previewTimer.start(qBound(250, 250 + size / 1000, 2000));
}

void CanvasEditor::refreshPreviewNow()
{
    m_previewTimer.stop();
    if (m_preview->isHidden())
        return;
    const int scroll = m_preview->verticalScrollBar()->value();
    if (m_editor->document()->characterCount() > kRenderLimit) {
        m_preview->setPlainText(tr("The live preview pauses for canvases over %1 "
                                   "KB so typing stays fast. "
                                   "Save to see the result.")
                                    .arg(kRenderLimit / 1024));
        return;
    }
    MarkdownRenderer::render(m_preview->document(), m_editor->toPlainText(), m_preview->palette());
    m_preview->verticalScrollBar()->setValue(scroll);
}

void CanvasEditor::setSpellChecker(SpellChecker *spelling)
{
    m_highlighter->setSpellChecker(spelling);
}

QMenu *CanvasEditor::createContextMenu(const QPoint &viewportPosition)
{
    QMenu *menu =
        m_editor->createStandardContextMenu(m_editor->viewport()->mapToGlobal(viewportPosition));
    menu->setObjectName(QStringLiteral("canvasEditorContextMenu"));
    menu->setAccessibleName(tr("Editor actions"));
    SpellChecker *spelling = m_highlighter->spellChecker();
    if (!spelling || !spelling->isEnabled() || m_editor->isReadOnly())
        return menu;
    const QTextCursor at = m_editor->cursorForPosition(viewportPosition);
    const QTextBlock block = at.block();
    const int column = at.positionInBlock();
    const auto wrong = spelling->misspellings(block.text());
    if (!wrong)
        return menu;
    const auto word = std::find_if(wrong->begin(), wrong->end(), [column](const SpellWord &w) {
        return column >= w.start && column <= w.start + w.length;
    });
    if (word == wrong->end())
        return menu;
    const int start = block.position() + word->start;
    const int length = word->length;
    const QString text = block.text().mid(word->start, word->length);
    QAction *first = menu->actions().value(0);
    const QStringList suggestions = spelling->suggestions(text);
    for (const QString &suggestion : suggestions) {
        auto *replace = new QAction(suggestion, menu);
        replace->setObjectName(QStringLiteral("spellingSuggestion"));
        connect(replace, &QAction::triggered, m_editor,
                [editor = m_editor, start, length, suggestion] {
                    QTextCursor cursor(editor->document());
                    cursor.setPosition(start);
                    cursor.setPosition(start + length, QTextCursor::KeepAnchor);
                    cursor.insertText(suggestion); // one undoable step
                });
        menu->insertAction(first, replace);
    }
    if (suggestions.isEmpty()) {
        auto *none = new QAction(tr("No spelling suggestions"), menu);
        none->setObjectName(QStringLiteral("spellingNoSuggestions"));
        none->setEnabled(false);
        menu->insertAction(first, none);
    }
    auto *add = new QAction(tr("Add “%1” to Dictionary").arg(text), menu);
    add->setObjectName(QStringLiteral("spellingAddToDictionary"));
    connect(add, &QAction::triggered, spelling,
            [spelling, text] { spelling->addToDictionary(text); });
    menu->insertAction(first, add);
    menu->insertSeparator(first);
    return menu;
}

} // namespace buzz::ui
