#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace buzz::client {
class RequestLog;
}

namespace buzz::ui {

class ConnectionStatus;
class RequestLogModel;

// For QA: the connection state (the same words as the status bar and the connection banner) and
// every relay request with its caller label, strong/routed, status, latency and the route the
// relay says served it. "Copy as JSON" puts the whole log on the clipboard.
class DiagnosticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPanel(client::RequestLog *log, QWidget *parent = nullptr);

    // Shows `status` in the connection line; until then the line is hidden.
    void setConnectionStatus(ConnectionStatus *status);
    RequestLogModel *model() const { return m_model; }
    QString logJson() const;
    // The whole entry of a row (filters sent, error, route, latency) in a dialog,
    // `requestDetailDialog`; double-click or Enter on a row opens it.
    void showDetail(int row);

private:
    void updateSummary();
    void updateConnection();

    client::RequestLog *m_log;
    ConnectionStatus *m_status = nullptr;
    RequestLogModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QLabel *m_connection;
    QPushButton *m_connectionAction;
};

} // namespace buzz::ui
