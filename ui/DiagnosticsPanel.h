#pragma once

#include "net/client/RequestJournal.h"

#include <QWidget>

#include <functional>

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
// relay says served it. "Copy as JSON" puts the whole log on the clipboard; "Save log…" writes it
// as JSON Lines (client::RequestJournal) with the app version, relay and identity on top.
class DiagnosticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPanel(client::RequestLog *log, QWidget *parent = nullptr);

    // Shows `status` in the connection line; until then the line is hidden.
    void setConnectionStatus(ConnectionStatus *status);
    RequestLogModel *model() const { return m_model; }
    QString logJson() const;
    // What the first line of a saved log says (version, relay, identity); asked at save time.
    void setSessionSource(std::function<client::RequestJournal::Session()> source);
    // Writes the log to `path` as JSON Lines (what "Save log…" does after asking for a file).
    bool saveLog(const QString &path, QString *error = nullptr) const;
    // The rotating journal the app keeps in its profile: shown, so QA knows where to look.
    void setJournalPath(const QString &path);
    // The whole entry of a row (filters sent, error, route, latency) in a dialog,
    // `requestDetailDialog`; double-click or Enter on a row opens it.
    void showDetail(int row);

private:
    void updateSummary();
    void updateConnection();
    void askAndSaveLog();

    client::RequestLog *m_log;
    ConnectionStatus *m_status = nullptr;
    RequestLogModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QLabel *m_connection;
    QLabel *m_journal;
    std::function<client::RequestJournal::Session()> m_sessionSource;
    QPushButton *m_connectionAction;
};

} // namespace buzz::ui
