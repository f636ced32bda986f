#pragma once

#include "net/client/RequestLog.h"

#include <QAbstractTableModel>

#include <deque>

namespace buzz::ui {

// The client's request log as a table for the Diagnostics dock (QA): one row per relay request or
// WebSocket frame. A request shows as "pending" from the moment it starts and its row is completed
// in place when it ends.
class RequestLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Sequence,
        Time,
        Caller,
        Method,
        Consistency,
        HttpStatus,
        Status,
        Latency,
        Route,
        ColumnCount
    };

    explicit RequestLogModel(client::RequestLog *log, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const client::RequestLogEntry *entryAt(int row) const;
    // The Served-by cell for a route as the relay told it ("replica; reason=fresh;
    // replica=replica-1; age_ms=180" → "replica-1 · fresh · data ≤ 180 ms old"); unknown shapes
    // as they came.
    static QString routeText(const QString &route);

private:
    void onEntryStarted(const client::RequestLogEntry &entry);
    void onEntryAdded(const client::RequestLogEntry &entry);
    void appendRow(const client::RequestLogEntry &entry);
    void reload();

    client::RequestLog *m_log;
    std::deque<client::RequestLogEntry> m_rows; // mirrors the log (same capacity)
    std::size_t m_capacity = 2000;
};

} // namespace buzz::ui
