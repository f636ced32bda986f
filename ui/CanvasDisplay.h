#pragma once

#include <QStackedWidget>

class QLabel;
class QTextDocument;

namespace buzz::ui {

class CanvasEditor;
class CanvasView;

// What the canvas area shows: a state line ("Loading canvas…", an error, "No canvas set"), the
// rendered Markdown, or the editor.
class CanvasDisplay : public QStackedWidget
{
    Q_OBJECT
public:
    CanvasDisplay(CanvasEditor *editor, QWidget *parent = nullptr);

    void showState(const QString &text);
    // The canvas rendered, up to the relay's 256 KiB cap and beyond. The Markdown is imported into
    // a document no widget shows yet, which then replaces the view's: Qt's import into the shown
    // document re-lays it out at every step (2.6 s for 256 KiB on the CI machine, 0.19 s
    // detached), and the view lays a new document out lazily, a slice per event-loop turn, so
    // the first screen paints at once. The reader keeps their place when the text changes. Text
    // over the relay's cap (only a relay that ignores it sends that) is shown as plain text.
    void showContent(const QString &markdown);
    void showEditor();
    // Keyboard focus to what is shown (the rendered canvas, the state line or the editor), so
    // typing and screen readers start at the canvas.
    void focusContent();
    CanvasView *view() const { return m_view; } // the rendered canvas (live changes mark lines)

private:
    void install(QTextDocument *document);

    QLabel *m_stateLabel;
    CanvasView *m_view;
    CanvasEditor *m_editor;
    QString m_rendered; // the Markdown m_view shows (shared, not copied): unchanged → no re-layout
};

} // namespace buzz::ui
