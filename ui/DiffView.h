#pragma once

#include <QWidget>

#include <utility>

class QLabel;
class QPlainTextEdit;

namespace buzz::ui {

// A line diff in History, always from the older text to the newer one: "+" lines were added, "−"
// lines removed, unchanged lines muted. Either a revision's own change (against the revision it
// replaced) or, from the revision to the current canvas, what changed since.
class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget *parent = nullptr);

    // The change `revisionText` made to `parentText` (`first`: it replaced nothing).
    void showChange(const QString &parentText, const QString &revisionText, bool first);
    // What changed from the revision to the current canvas.
    void showComparison(const QString &revisionText, const QString &currentText);
    void showMessage(const QString &message); // "Select a revision to compare it…", errors
    void clear();

    QString summary() const; // "+3 −1 lines in this revision …", "Identical to the current canvas."
    QString diffText() const; // the rendered diff as plain text (tests, copy)

private:
    // Renders the diff from `from` to `to`; returns {added, removed}.
    std::pair<int, int> render(const QString &from, const QString &to);

    QLabel *m_summary;
    QPlainTextEdit *m_text;
};

} // namespace buzz::ui
