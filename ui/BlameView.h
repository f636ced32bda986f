#pragma once

#include "canvas/LineBlame.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace buzz::canvas {
class ProfileCache;
}

namespace buzz::ui {

class BlameModel;

// History's blame: who last changed each line of the selected revision and when, one table row
// per line. It shows what the panel hands it (canvas::BlameService computes it); "Try again"
// asks for it once more when older history could not be read.
class BlameView : public QWidget
{
    Q_OBJECT
public:
    explicit BlameView(canvas::ProfileCache *profiles, QWidget *parent = nullptr);

    void showLoading();
    // `of`: whose revision this is ("Alice's revision from 7 Dec 2026 14:02").
    void showBlame(const canvas::Blame &blame, const QString &of);
    void showMessage(const QString &message, bool offerRetry);
    void clear();

    BlameModel *model() const { return m_model; }
    QString statusText() const;

signals:
    void retryRequested();

private:
    BlameModel *m_model;
    QLabel *m_status;
    QTableView *m_table;
    QPushButton *m_retry;
};

} // namespace buzz::ui
