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
    // "POST /query", "POST /events", "POST /count"; WebSocket frames: "WS REQ" (a subscription),
    // "WS CLOSE", "WS AUTH", and received ones "WS EVENT", "WS CLOSED", "WS NOTICE"
    QString method;
    bool strong = false; // a filter carried "consistency":"strong" (else: routed)
    // A read (POST /query, /count, WS REQ) is strong or routed; a write (POST /events) and the
    // other WebSocket frames are neither and never show as "routed".
    bool read = true;
    int httpStatus = 0; // 0 for WS or when no response arrived
    QString status; // "ok", or the error kind ("network", "timeout", "conflict", …)
    QString errorDetail; // the RelayError detail when status != "ok"
    double latencyMs = 0; // request start → last byte (or failure)
    QString route; // X-Buzz-Read-Route header as received ("writer; reason=strong"), may be empty
    // Events of the answer (or the received frame) that were not used: malformed, a wrong id or
    // signature, or not what was asked for (EventVerifier). The reason is the first one's.
    int dropped = 0;
    QString droppedReason;

    QString consistencyName() const
    {
        if (!read)
            return method == QLatin1String("POST /events") ? QStringLiteral("write")
                                                           : QStringLiteral("-");
        return strong ? QStringLiteral("strong") : QStringLiteral("routed");
    }
    QString detail; // what the frame or request carried, for the detail view (no secrets)
    QJsonObject toJson() const;
};

// Bounded in-memory log of relay requests, newest last. Lives in the GUI thread with the bridge.
class RequestLog : public QObject
{
    Q_OBJECT
public:
    explicit RequestLog(QObject *parent = nullptr, std::size_t capacity = 2000);

    // A request is under way: assigns its sequence number and emits entryStarted (status
    // "pending"), so a slow request shows while it waits, not only once it ended. The same entry,
    // finished, goes to append(); entries() holds finished entries only.
    quint64 begin(RequestLogEntry &entry);
    // Stores a finished entry (a new sequence number unless begin() gave it one), dropping the
    // oldest beyond capacity, and emits entryAdded.
    quint64 append(RequestLogEntry entry);
    // A WebSocket frame other than a REQ (an event received, dropped or sent, a NOTICE), for the
    // Diagnostics dock: never a secret, never event content. `droppedReason`: why an event was
    // not used.
    void appendFrame(const QString &method, const QString &caller, const QString &status,
                     const QString &detail, const QString &droppedReason = {});

    const std::deque<RequestLogEntry> &entries() const { return m_entries; }
    std::size_t size() const { return m_entries.size(); }
    void clear();

    QJsonArray toJson() const;
    // One line of text per entry for `--trace`: "#3 canvas_precondition POST /query strong 200
    // ok 1.2 ms route=[writer; reason=strong]", with " dropped=2 (invalid schnorr signature
    // (event 3fa1…))" when events were dropped.
    static QString formatLine(const RequestLogEntry &entry);

signals:
    void entryStarted(const buzz::client::RequestLogEntry &entry);
    void entryAdded(const buzz::client::RequestLogEntry &entry);
    void cleared();

private:
    std::deque<RequestLogEntry> m_entries;
    std::size_t m_capacity;
    quint64 m_nextSequence = 1;
};

} // namespace buzz::client

Q_DECLARE_METATYPE(buzz::client::RequestLogEntry)
