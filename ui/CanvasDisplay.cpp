#include "ui/CanvasDisplay.h"

#include "canvas/CanvasWriteRules.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasView.h"
#include "ui/ContentDocument.h"
#include "ui/MarkdownRenderer.h"
#include "ui/MonospaceFont.h"

#include <QAbstractTextDocumentLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>

namespace buzz::ui {

namespace {

constexpr qreal kDocumentMargin = 16;

} // namespace

CanvasDisplay::CanvasDisplay(CanvasEditor *editor, QWidget *parent)
    : QStackedWidget(parent)
    , m_stateLabel(new QLabel(this))
    , m_view(new CanvasView(this))
    , m_editor(editor)
{
    m_stateLabel->setObjectName(QStringLiteral("canvasStateLabel"));
    m_stateLabel->setAlignment(Qt::AlignCenter);
    m_stateLabel->setWordWrap(true);
    // Focusable like the rendered canvas, so focus can rest on "Loading canvas…" too.
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_view->setObjectName(QStringLiteral("canvasView"));
    m_view->setAccessibleName(tr("Canvas"));
    m_view->document()->setDocumentMargin(kDocumentMargin);
    addWidget(m_stateLabel);
    addWidget(m_view);
    addWidget(m_editor);
}

void CanvasDisplay::showState(const QString &text)
{
    m_stateLabel->setText(text);
    setCurrentWidget(m_stateLabel);
}

void CanvasDisplay::showContent(const QString &markdown)
{
    // The same text again (the head confirmed by the writer, a reload): no re-layout, so the
    // reader's scroll position stays.
    if (markdown != m_rendered || m_view->document()->isEmpty()) {
        auto *document = new ContentDocument(m_view);
        document->setDefaultFont(m_view->document()->defaultFont());
        document->setDocumentMargin(kDocumentMargin);
        if (canvas::CanvasWriteRules::utf8Size(markdown)
            > canvas::CanvasWriteRules::kMaxContentBytes) {
            // More than any relay accepts: only a relay that ignores the cap sends it, and its
            // Markdown import would hold the window for a second per MiB. Shown as text.
            document->setDefaultFont(MonospaceFont::font());
            document->setPlainText(markdown);
        } else {
            MarkdownRenderer::render(document, markdown, m_view->palette());
        }
        install(document);
        m_rendered = markdown;
    }
    setCurrentWidget(m_view);
}

void CanvasDisplay::install(QTextDocument *document)
{
    // Where the reader is: the paragraph at the top of the view (its number: an edit above it
    // changes its position in the text, rarely the count of paragraphs before it) and how far into
    // it. After the swap the view scrolls back there, laying out only what lies above it, instead
    // of jumping to the top.
    QScrollBar *scroll = m_view->verticalScrollBar();
    const bool scrolled = scroll->value() > 0;
    int topBlock = 0;
    qreal intoBlock = 0;
    if (scrolled) {
        const QTextBlock block = m_view->cursorForPosition(QPoint(0, 0)).block();
        topBlock = block.blockNumber();
        intoBlock =
            scroll->value() - m_view->document()->documentLayout()->blockBoundingRect(block).top();
    }
    QTextDocument *previous = m_view->document();
    m_view->setDocument(document);
    if (previous->parent() == m_view) // one of ours; the view's first document is its own
        previous->deleteLater();
    if (scrolled) {
        const QTextBlock block =
            document->findBlockByNumber(qMin(topBlock, document->blockCount() - 1));
        const QRectF where = document->documentLayout()->blockBoundingRect(block);
        scroll->setValue(int(where.top() + intoBlock));
    }
}

void CanvasDisplay::showEditor()
{
    setCurrentWidget(m_editor);
}

void CanvasDisplay::focusContent()
{
    if (currentWidget() == m_editor)
        m_editor->editor()->setFocus(Qt::OtherFocusReason);
    else if (QWidget *shown = currentWidget())
        shown->setFocus(Qt::OtherFocusReason);
}

} // namespace buzz::ui
