#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace buzz::ui {

// Find and replace inside the canvas editor, like Kate's search bar: below the text, Enter finds
// the next match (Shift+Enter the previous one), wrapping at the end; Replace replaces the match
// under the cursor and moves on; Replace all is one undo step. Esc closes it and returns to the
// text. It edits the document through QTextCursor, so every change is the editor's own (undo,
// autosave, the session's "unsaved changes").
class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QPlainTextEdit *editor, QWidget *parent = nullptr);

    // Shows the bar (with the replace row when `replace`), seeded with the selected text.
    void open(bool replace);
    void close();
    // Selects the next (previous) match from the cursor, wrapping around; false when none.
    bool findNext(bool backward = false);
    bool replaceCurrent();
    int replaceAll();
    QString statusText() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool matchesSelection() const;
    void setStatus(const QString &text);

    QPlainTextEdit *m_editor;
    QLineEdit *m_find;
    QLineEdit *m_replace;
    QCheckBox *m_case;
    QLabel *m_status;
    QPushButton *m_previous;
    QPushButton *m_next;
    QPushButton *m_replaceOne;
    QPushButton *m_replaceAll;
    QToolButton *m_close;
    QWidget *m_replaceRow;
};

} // namespace buzz::ui
