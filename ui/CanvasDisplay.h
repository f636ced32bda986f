#pragma once

#include <QStackedWidget>
#include <QThreadPool>

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
    ~CanvasDisplay() override; // waits for an import in progress (at most a fraction of a second)

    void showState(const QString &text);
    // The canvas rendered, up to the relay's 256 KiB cap and beyond. The Markdown is imported into
    // a document no widget shows yet, which then replaces the view's: Qt's import into the shown
    // document re-lays it out at every step (2.6 s for 256 KiB on the CI machine, 0.19 s
    // detached), and the view lays a new document out lazily, a slice per event-loop turn, so
    // the first screen paints at once. Above kImportInline characters the import runs on a worker
    // thread (a 250 KiB canvas held the GUI thread 72-77 ms), and what was shown stays until the
    // new document is ready: contentShown() then. The reader keeps their place when the text
    // changes. Text over the relay's cap (only a relay that ignores it sends that) is shown as
    // plain text.
    void showContent(const QString &markdown);
    static constexpr int kImportInline = 16 * 1024; // ~10 ms on the GUI thread
    bool isImporting() const { return m_importing; }
    void showEditor();
    // Keyboard focus to what is shown (the rendered canvas, the state line or the editor), so
    // typing and screen readers start at the canvas.
    void focusContent();
    CanvasView *view() const { return m_view; } // the rendered canvas (live changes mark lines)

signals:
    // The view holds a new document (marks made on the previous one are gone).
    void contentShown();

private:
    void install(QTextDocument *document);
    void importInBackground(const QString &markdown);

    QLabel *m_stateLabel;
    CanvasView *m_view;
    CanvasEditor *m_editor;
    QString m_rendered; // the Markdown m_view shows (shared, not copied): unchanged → no re-layout
    QString m_importingText; // what the worker imports now (m_generation names it)
    quint64 m_generation = 0;
    bool m_importing = false;
    bool m_contentWanted = false; // showContent() was the last request (not the editor, a state)
    QThreadPool m_importer;
};

} // namespace buzz::ui
