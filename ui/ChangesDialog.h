#pragma once

#include "canvas/LiveChangeTracker.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace buzz::ui {

// What one change to the canvas did, line by line ("+" added, "−" removed, the rest as context),
// for "Show changes" on a live change and "What changed" since the last visit. Read-only.
class ChangesDialog : public QDialog
{
    Q_OBJECT
public:
    ChangesDialog(const QString &title, const canvas::LiveChangeTracker::Change &change,
                  QWidget *parent = nullptr);

    QString diffText() const; // the lines as shown, with their signs

private:
    QLabel *m_summary;
    QPlainTextEdit *m_text;
};

} // namespace buzz::ui
