#pragma once

#include <QKeySequence>
#include <QTimer>
#include <QWidget>

class QLabel;
class QMenu;
class QPlainTextEdit;
class QSplitter;
class QTextBrowser;

namespace buzz::ui {

class FindBar;
class MarkdownHighlighter;
class SpellChecker;

// The Markdown editor: a monospace QPlainTextEdit with syntax colouring and a live rendered
// preview beside it. The preview is debounced by document size so typing stays under a frame
// even in a 1 MB canvas.
class CanvasEditor : public QWidget
{
    Q_OBJECT
public:
    // The live preview re-imports the Markdown into the document it shows after every pause in
    // typing, which grows faster than linearly (seconds for 250 KiB): above this many characters
    // it shows the source. The canvas view has no such limit (CanvasDisplay::showContent).
    static constexpr int kRenderLimit = 48 * 1024;

    explicit CanvasEditor(QWidget *parent = nullptr);

    // Loads text as a fresh document (clears undo): starting an edit, restoring a draft.
    void loadText(const QString &text);
    // Replaces the whole text as one undoable step, so Ctrl+Z brings the previous text back
    // (applying a merge, taking theirs).
    void replaceText(const QString &text);
    QString text() const;

    void setReadOnly(bool readOnly);
    void setPreviewVisible(bool visible);
    bool isPreviewVisible() const;
    void refreshPreviewNow();

    QPlainTextEdit *textEdit() const { return m_editor; }
    MarkdownHighlighter *highlighter() const { return m_highlighter; }
    // Underlines misspelled words and offers suggestions in the context menu (nullptr: off).
    void setSpellChecker(SpellChecker *spelling);
    // The editor's context menu at a viewport position: Qt's own entries, preceded by spelling
    // suggestions and "Add to dictionary" when the word there is underlined. The caller owns it
    // (the editor pops it up; tests inspect and trigger it).
    QMenu *createContextMenu(const QPoint &viewportPosition);
    QLabel *sizeLabel() const { return m_sizeLabel; }
    QLabel *countsLabel() const { return m_countsLabel; }
    void refreshSizeNow(); // the size and counts labels, at once (tests; after loading a text)
    QTextBrowser *preview() const { return m_preview; }
    FindBar *findBar() const { return m_findBar; }
    // Keys the editor keeps for its find bar (Find, Replace, Find next / previous): the window's
    // global Search answers Ctrl+F everywhere else, and Ctrl+Shift+F from here.
    static QList<QKeySequence> ownShortcuts();
    static QKeySequence replaceShortcut(); // Ctrl+R

signals:
    void textEdited(); // every change of the text (typing, paste, replaceText)

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void schedulePreview();

    QSplitter *m_splitter;
    QPlainTextEdit *m_editor;
    QTextBrowser *m_preview;
    MarkdownHighlighter *m_highlighter;
    FindBar *m_findBar;
    QTimer m_previewTimer;
    QLabel *m_countsLabel; // "120 words · 14 lines", beside the size
    // "12.3 KiB of 256 KiB": the relay's cap (CanvasWriteRules), counted after a pause in typing.
    QLabel *m_sizeLabel;
    QTimer m_sizeTimer;
};

} // namespace buzz::ui
