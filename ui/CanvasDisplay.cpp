#include "ui/CanvasDisplay.h"

#include "canvas/CanvasWriteRules.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasView.h"
#include "ui/MarkdownRenderer.h"
#include "ui/MonospaceFont.h"
#include "ui/UiFormat.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace buzz::ui {

CanvasDisplay::CanvasDisplay(CanvasEditor *editor, QWidget *parent)
    : QStackedWidget(parent)
    , m_stateLabel(new QLabel(this))
    , m_view(new CanvasView(this))
    , m_sourcePage(new QWidget(this))
    , m_sourceNotice(new QLabel(m_sourcePage))
    , m_renderAnyway(new QPushButton(tr("&Render anyway"), m_sourcePage))
    , m_sourceView(new QPlainTextEdit(m_sourcePage))
    , m_editor(editor)
{
    m_stateLabel->setObjectName(QStringLiteral("canvasStateLabel"));
    m_stateLabel->setAlignment(Qt::AlignCenter);
    m_stateLabel->setWordWrap(true);
    // Focusable like the rendered canvas, so focus can rest on "Loading canvas…" too.
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_view->setObjectName(QStringLiteral("canvasView"));
    m_view->setAccessibleName(tr("Canvas"));
    m_view->document()->setDocumentMargin(16);
    m_sourceView->setObjectName(QStringLiteral("canvasSourceView"));
    m_sourceView->setAccessibleName(tr("Canvas (Markdown source)"));
    m_sourceView->setReadOnly(true);
    m_sourceView->setFont(MonospaceFont::font());
    m_sourceNotice->setObjectName(QStringLiteral("canvasSourceNotice"));
    m_sourceNotice->setWordWrap(true);
    m_renderAnyway->setObjectName(QStringLiteral("renderCanvasButton"));
    m_renderAnyway->setAccessibleName(tr("Render the canvas anyway"));
    connect(m_renderAnyway, &QPushButton::clicked, this, &CanvasDisplay::renderLarge);
    auto *noticeRow = new QHBoxLayout;
    noticeRow->addWidget(m_sourceNotice, 1);
    noticeRow->addWidget(m_renderAnyway, 0, Qt::AlignVCenter);
    auto *sourceLayout = new QVBoxLayout(m_sourcePage);
    sourceLayout->setContentsMargins(0, 0, 0, 0);
    sourceLayout->setSpacing(4);
    sourceLayout->addLayout(noticeRow);
    sourceLayout->addWidget(m_sourceView, 1);
    addWidget(m_stateLabel);
    addWidget(m_view);
    addWidget(m_editor);
    addWidget(m_sourcePage);
}

void CanvasDisplay::showState(const QString &text)
{
    m_stateLabel->setText(text);
    setCurrentWidget(m_stateLabel);
}

void CanvasDisplay::showContent(const QString &markdown)
{
    if (markdown.size() > CanvasEditor::kRenderLimit && !m_renderLarge) {
        m_sourceView->setPlainText(markdown);
        m_view->clear();
        m_rendered.clear();
        m_sourceNotice->setText(
            tr("This canvas is %1, so it is shown as Markdown source: laying out a "
               "rendered "
               "canvas over %2 takes seconds and would freeze the window.")
                .arg(UiFormat::locale().formattedDataSize(
                         canvas::CanvasWriteRules::utf8Size(markdown), 1,
                         QLocale::DataSizeIecFormat),
                     UiFormat::locale().formattedDataSize(CanvasEditor::kRenderLimit, 0,
                                                          QLocale::DataSizeIecFormat)));
        setCurrentWidget(m_sourcePage);
    } else {
        m_sourceView->clear();
        // The same text again (the head confirmed by the writer, a reload): no re-layout, so the
        // reader's scroll position stays.
        if (markdown != m_rendered || m_view->document()->isEmpty()) {
            MarkdownRenderer::render(m_view->document(), markdown, m_view->palette());
            m_rendered = markdown;
        }
        setCurrentWidget(m_view);
    }
}

void CanvasDisplay::renderLarge()
{
    m_renderLarge = true;
    showContent(m_sourceView->toPlainText());
}

void CanvasDisplay::forgetRenderChoice()
{
    m_renderLarge = false;
}

void CanvasDisplay::showEditor()
{
    setCurrentWidget(m_editor);
}

void CanvasDisplay::focusContent()
{
    if (currentWidget() == m_editor)
        m_editor->editor()->setFocus(Qt::OtherFocusReason);
    else if (currentWidget() == m_sourcePage)
        m_sourceView->setFocus(Qt::OtherFocusReason);
    else if (QWidget *shown = currentWidget())
        shown->setFocus(Qt::OtherFocusReason);
}

} // namespace buzz::ui
