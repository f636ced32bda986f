#include "ui/CanvasDisplay.h"

#include "canvas/CanvasWriteRules.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasView.h"
#include "ui/ContentDocument.h"
#include "ui/MarkdownRenderer.h"
#include "ui/MonospaceFont.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>

#include <memory>
#include <utility>

namespace buzz::ui {

namespace {

constexpr qreal kDocumentMargin = 16;

// A document imported on the worker, on its way to the view: deleted unless taken.
class ImportedDocument
{
public:
    explicit ImportedDocument(QTextDocument *document)
        : m_document(document)
    { }
    ~ImportedDocument()
    {
        if (m_document)
            m_document->deleteLater(); // from whichever thread lets go last
    }
    ImportedDocument(const ImportedDocument &) = delete;
    ImportedDocument &operator=(const ImportedDocument &) = delete;
    QTextDocument *release() { return std::exchange(m_document, nullptr); }

private:
    QTextDocument *m_document;
};

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
    m_importer.setMaxThreadCount(1);
    m_importer.setObjectName(QStringLiteral("canvasImport"));
    MonospaceFont::font(); // chosen once, here: the worker's import only reads it
}

CanvasDisplay::~CanvasDisplay()
{
    ++m_generation; // an import still running is dropped when it reports
    m_importer.clear();
    m_importer.waitForDone();
}

void CanvasDisplay::showState(const QString &text)
{
    m_contentWanted = false;
    m_stateLabel->setText(text);
    setCurrentWidget(m_stateLabel);
}

void CanvasDisplay::showContent(const QString &markdown)
{
    m_contentWanted = true;
    if (m_importing && markdown == m_importingText)
        return; // on its way
    const bool large = markdown.size() > kImportInline
        && canvas::CanvasWriteRules::utf8Size(markdown)
            <= canvas::CanvasWriteRules::kMaxContentBytes;
    if (large && (markdown != m_rendered || m_view->document()->isEmpty())) {
        importInBackground(markdown);
        return;
    }
    if (m_importing) { // a smaller text overtook an import: that one is dropped when it reports
        ++m_generation;
        m_importing = false;
        m_importingText.clear();
    }
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

void CanvasDisplay::importInBackground(const QString &markdown)
{
    const quint64 generation = ++m_generation;
    m_importing = true;
    m_importingText = markdown;
    QThread *gui = thread();
    m_importer.start([this, generation, gui, markdown, font = m_view->document()->defaultFont(),
                      palette = m_view->palette()] {
        // A document of no widget and no parent, built here and handed to the GUI thread whole.
        auto *document = new ContentDocument;
        document->setDefaultFont(font);
        document->setDocumentMargin(kDocumentMargin);
        MarkdownRenderer::render(document, markdown, palette);
        document->moveToThread(gui);
        // `this` waits for this task in its destructor, so it is alive to receive the call; a
        // document nobody takes (superseded, or the display gone first) is deleted on its thread.
        auto imported = std::make_shared<ImportedDocument>(document);
        QMetaObject::invokeMethod(
            this,
            [this, generation, imported] {
                if (generation != m_generation)
                    return; // superseded by a newer text
                QTextDocument *ready = imported->release();
                m_importing = false;
                ready->setParent(m_view);
                install(ready);
                m_rendered = std::exchange(m_importingText, QString());
                if (m_contentWanted)
                    setCurrentWidget(m_view);
            },
            Qt::QueuedConnection);
    });
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
    emit contentShown();
}

void CanvasDisplay::showEditor()
{
    m_contentWanted = false;
    setCurrentWidget(m_editor);
}

void CanvasDisplay::focusContent()
{
    if (currentWidget() == m_editor)
        m_editor->textEdit()->setFocus(Qt::OtherFocusReason);
    else if (QWidget *shown = currentWidget())
        shown->setFocus(Qt::OtherFocusReason);
}

} // namespace buzz::ui
