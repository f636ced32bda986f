#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <deque>

namespace buzz::client {

// One request the client made to the relay: what the diagnostics panel shows and `--trace` prints.
struct RequestLogEntry
{
    quint64 sequence = 0; // 1, 2, 3 … per log
    QDateTime startedAt; // UTC
    QString caller; // e.g. "canvas_head_display", "canvas_precondition", "canvas_ancestry",
                    // "canvas_existence", "canvas_publish", "history_page", "search"
    QString method; // "POST /query", "POST /events", "POST /count", "WS REQ" (a subscription)
    bool strong = false; // a filter carried "consistency":"strong" (else: routed)
    int httpStatus = 0; // 0 for WS or when no response arrived
    QString status; // "ok", or the error kind ("network", "timeout", "conflict", …)
    QString errorDetail; // the RelayError detail when status != "ok"
    double latencyMs = 0; // request start → last byte (or failure)
    QString route; // X-Buzz-Read-Route header as received ("writer; reason=strong"), may be empty

    QString consistencyName() const
    {
        return strong ? QStringLiteral("strong") : QStringLiteral("routed");
    }
    QJsonObject toJson() const;
};

// Bounded in-memory log of relay requests, newest last. Lives in the GUI thread with the bridge.
class RequestLog : public QObject
{
    Q_OBJECT
public:
    explicit RequestLog(QObject *parent = nullptr, std::size_t capacity = 2000);

    // Assigns the sequence number, stores (dropping the oldest beyond capacity), emits entryAdded.
    quint64 append(RequestLogEntry entry);

    const std::deque<RequestLogEntry> &entries() const { return m_entries; }
    std::size_t size() const { return m_entries.size(); }
    void clear();

    QJsonArray toJson() const;
    // One line of text per entry for `--trace`: "#3 canvas_precondition POST /query strong 200
    // ok 1.2 ms writer; reason=strong"
    static QString formatLine(const RequestLogEntry &entry);

signals:
    void entryAdded(const buzz::client::RequestLogEntry &entry);
    void cleared();

private:
    std::deque<RequestLogEntry> m_entries;
    std::size_t m_capacity;
    quint64 m_nextSequence = 1;
};

} // namespace buzz::client

Q_DECLARE_METATYPE(buzz::client::RequestLogEntry)
