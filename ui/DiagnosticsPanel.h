#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace buzz::client {
class RequestLog;
}

namespace buzz::ui {

class RequestLogModel;

// For QA: every relay request with its caller label, strong/routed, status, latency and the route
// the relay says served it. "Copy as JSON" puts the whole log on the clipboard.
class DiagnosticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPanel(client::RequestLog *log, QWidget *parent = nullptr);

    RequestLogModel *model() const { return m_model; }
    QString logJson() const;

private:
    void updateSummary();

    client::RequestLog *m_log;
    RequestLogModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
};

} // namespace buzz::ui
