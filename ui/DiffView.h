#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace buzz::ui {

// A line diff of a history revision against the current canvas, like the desktop's history panel:
// "+" lines exist only in the revision, "−" lines only in the current canvas, unchanged lines
// muted.
class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget *parent = nullptr);

    void showDiff(const QString &revisionText, const QString &currentText);
    void showMessage(const QString &message); // "Select a revision to compare it…", errors
    void clear();

    QString summary() const; // "Identical to the current canvas." or "+3 −1 lines"
    QString diffText() const; // the rendered diff as plain text (tests, copy)

private:
    QLabel *m_summary;
    QPlainTextEdit *m_text;
};

} // namespace buzz::ui
