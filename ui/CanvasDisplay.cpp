#include "ui/CanvasDisplay.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasView.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBrowser>

namespace buzz::ui {

CanvasDisplay::CanvasDisplay(CanvasEditor *editor, QWidget *parent)
    : QStackedWidget(parent)
    , m_stateLabel(new QLabel(this))
    , m_view(new CanvasView(this))
    , m_sourceView(new QPlainTextEdit(this))
    , m_editor(editor)
{
    m_stateLabel->setObjectName(QStringLiteral("canvasStateLabel"));
    m_stateLabel->setAlignment(Qt::AlignCenter);
    m_stateLabel->setWordWrap(true);
    // Focusable like the rendered canvas, so focus can rest on "Loading canvas…" too.
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_view->setObjectName(QStringLiteral("canvasView"));
    m_view->setAccessibleName(tr("Canvas"));
    m_view->setOpenExternalLinks(true);
    m_view->document()->setDocumentMargin(16);
    m_sourceView->setObjectName(QStringLiteral("canvasSourceView"));
    m_sourceView->setAccessibleName(tr("Canvas (Markdown source)"));
    m_sourceView->setReadOnly(true);
    m_sourceView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    addWidget(m_stateLabel);
    addWidget(m_view);
    addWidget(m_editor);
    addWidget(m_sourceView);
}

void CanvasDisplay::showState(const QString &text)
{
    m_stateLabel->setText(text);
    setCurrentWidget(m_stateLabel);
}

void CanvasDisplay::showContent(const QString &markdown)
{
    if (markdown.size() > CanvasEditor::kRenderLimit) {
        m_sourceView->setPlainText(markdown);
        m_view->clear();
        setCurrentWidget(m_sourceView);
    } else {
        m_sourceView->clear();
        m_view->setMarkdown(markdown);
        setCurrentWidget(m_view);
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
