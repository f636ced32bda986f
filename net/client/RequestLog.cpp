#include "net/client/RequestLog.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcRequestLog, "buzz.client.log")

namespace buzz::client {

QJsonObject RequestLogEntry::toJson() const
{
    QJsonObject object {
        {QStringLiteral("sequence"), static_cast<qint64>(sequence)},
        {QStringLiteral("started_at"), startedAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("caller"), caller},
        {QStringLiteral("method"), method},
        {QStringLiteral("consistency"), consistencyName()},
        {QStringLiteral("status"), status},
        {QStringLiteral("latency_ms"), latencyMs},
    };
    if (httpStatus != 0)
        object.insert(QStringLiteral("http_status"), httpStatus);
    if (!route.isEmpty())
        object.insert(QStringLiteral("route"), route);
    if (!errorDetail.isEmpty())
        object.insert(QStringLiteral("error"), errorDetail);
    if (!detail.isEmpty())
        object.insert(QStringLiteral("detail"), detail);
    if (dropped > 0) {
        object.insert(QStringLiteral("dropped"), dropped);
        object.insert(QStringLiteral("dropped_reason"), droppedReason);
    }
    return object;
}

RequestLog::RequestLog(QObject *parent, std::size_t capacity)
    : QObject(parent)
    , m_capacity(capacity == 0 ? 1 : capacity)
{
    qRegisterMetaType<buzz::client::RequestLogEntry>();
}

void RequestLog::appendFrame(const QString &method, const QString &caller, const QString &status,
                             const QString &detail, const QString &droppedReason)
{
    RequestLogEntry entry;
    entry.startedAt = QDateTime::currentDateTimeUtc();
    entry.caller = caller;
    entry.method = method;
    entry.read = false;
    entry.status = status;
    entry.detail = detail;
    if (!droppedReason.isEmpty()) {
        qCWarning(lcRequestLog) << "dropped an event:" << droppedReason << detail;
        entry.dropped = 1;
        entry.droppedReason = droppedReason;
        entry.errorDetail = droppedReason;
    }
    append(std::move(entry));
}

quint64 RequestLog::begin(RequestLogEntry &entry)
{
    entry.sequence = m_nextSequence++;
    entry.status = QStringLiteral("pending");
    emit entryStarted(entry);
    return entry.sequence;
}

quint64 RequestLog::append(RequestLogEntry entry)
{
    if (entry.sequence == 0)
        entry.sequence = m_nextSequence++;
    if (m_entries.size() >= m_capacity)
        m_entries.pop_front();
    m_entries.push_back(std::move(entry));
    emit entryAdded(m_entries.back());
    return m_entries.back().sequence;
}

void RequestLog::clear()
{
    m_entries.clear();
    emit cleared();
}

QJsonArray RequestLog::toJson() const
{
    QJsonArray array;
    for (const RequestLogEntry &entry : m_entries)
        array.append(entry.toJson());
    return array;
}

QString RequestLog::formatLine(const RequestLogEntry &entry)
{
    QString line = QStringLiteral("#%1 %2 %3 %4 %5 %6 %7 ms")
                       .arg(entry.sequence)
                       .arg(entry.caller, entry.method, entry.consistencyName())
                       .arg(entry.httpStatus)
                       .arg(entry.status)
                       .arg(entry.latencyMs, 0, 'f', 1);
    if (!entry.route.isEmpty())
        line += QStringLiteral(" route=[") + entry.route + QLatin1Char(']');
    if (!entry.errorDetail.isEmpty())
        line += QStringLiteral(" error=") + entry.errorDetail;
    if (entry.dropped > 0)
        line += QStringLiteral(" dropped=%1 (%2)").arg(entry.dropped).arg(entry.droppedReason);
    return line;
}

} // namespace buzz::client
