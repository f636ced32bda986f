#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>

#include <utility>

class QPlainTextEdit;
class QTextCursor;

namespace buzz::ui {

// The Markdown editor's writing keys, as other Markdown editors have them: Enter continues a list
// ("- ", "* ", "1. " numbered on, "- [ ] "), and on an empty item ends it; Ctrl+B / Ctrl+I wrap
// the selection in ** / * (or put the markers around the caret; again on a wrapped selection
// unwraps it); Ctrl+K makes the selection a link and selects its address; Tab / Shift+Tab indent
// and outdent list items (elsewhere Tab does what it did). Every edit is one undo step.
class MarkdownEditKeys : public QObject
{
    Q_OBJECT
public:
    explicit MarkdownEditKeys(QPlainTextEdit *editor);

    static QKeySequence boldShortcut(); // Ctrl+B
    static QKeySequence italicShortcut(); // Ctrl+I
    static QKeySequence linkShortcut(); // Ctrl+K
    // What each key does, for the Keyboard Shortcuts dialog.
    static QList<std::pair<QString, QString>> describedKeys();

    bool continueList();
    void toggleWrap(const QString &marker);
    void makeLink();
    bool indentListItems(bool outdent);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QPlainTextEdit *m_editor;
};

} // namespace buzz::ui
