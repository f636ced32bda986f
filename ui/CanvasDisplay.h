#pragma once

#include <QStackedWidget>

class QLabel;
class QPlainTextEdit;
class QTextBrowser;

namespace buzz::ui {

class CanvasEditor;
class CanvasView;

// What the canvas area shows: a state line ("Loading canvas…", an error, "No canvas set"), the
// rendered Markdown, the Markdown source for canvases too large to lay out quickly, or the editor.
class CanvasDisplay : public QStackedWidget
{
    Q_OBJECT
public:
    CanvasDisplay(CanvasEditor *editor, QWidget *parent = nullptr);

    void showState(const QString &text);
    // Rendered Markdown, or the plain source above CanvasEditor::kRenderLimit (Qt's Markdown
    // layout of a 250 KiB document takes seconds).
    void showContent(const QString &markdown);
    void showEditor();
    // Keyboard focus to what is shown (the rendered canvas, the source, the state line or the
    // editor), so typing and screen readers start at the canvas.
    void focusContent();

private:
    QLabel *m_stateLabel;
    CanvasView *m_view;
    QPlainTextEdit *m_sourceView;
    CanvasEditor *m_editor;
};

} // namespace buzz::ui
