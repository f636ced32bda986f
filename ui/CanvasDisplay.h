#pragma once

#include <QStackedWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
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
    // Rendered Markdown, or above CanvasEditor::kRenderLimit the source with a line saying why
    // (Qt's Markdown layout of a 250 KiB document takes seconds) and "Render anyway".
    void showContent(const QString &markdown);
    void showEditor();
    // A new channel: its large canvas shows as source until the user asks again ("Render anyway"
    // is remembered for the channel it was pressed in, across edits and saves).
    void forgetRenderChoice();
    // Keyboard focus to what is shown (the rendered canvas, the source, the state line or the
    // editor), so typing and screen readers start at the canvas.
    void focusContent();

private:
    void renderLarge(); // the user asked for it: the window is busy while it lays out

    QLabel *m_stateLabel;
    CanvasView *m_view;
    QWidget *m_sourcePage;
    QLabel *m_sourceNotice;
    QPushButton *m_renderAnyway;
    QPlainTextEdit *m_sourceView;
    CanvasEditor *m_editor;
    QString m_rendered; // the Markdown m_view shows (shared, not copied): unchanged → no re-layout
    bool m_renderLarge = false; // "Render anyway" was pressed for this channel
};

} // namespace buzz::ui
