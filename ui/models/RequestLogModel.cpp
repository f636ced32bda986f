#include "ui/models/RequestLogModel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace buzz::ui {

RequestLogModel::RequestLogModel(client::RequestLog *log, QObject *parent)
    : QAbstractTableModel(parent)
    , m_log(log)
{
    reload();
    connect(m_log, &client::RequestLog::entryStarted, this, &RequestLogModel::onEntryStarted);
    connect(m_log, &client::RequestLog::entryAdded, this, &RequestLogModel::onEntryAdded);
    connect(m_log, &client::RequestLog::cleared, this, &RequestLogModel::reload);
}

void RequestLogModel::reload()
{
    beginResetModel();
    m_rows.assign(m_log->entries().begin(), m_log->entries().end());
    std::sort(m_rows.begin(), m_rows.end(),
              [](const auto &a, const auto &b) { return a.sequence < b.sequence; });
    endResetModel();
}

void RequestLogModel::onEntryStarted(const client::RequestLogEntry &entry)
{
    appendRow(entry);
}

void RequestLogModel::onEntryAdded(const client::RequestLogEntry &entry)
{
    // Its pending row, if it has one. Rows are in sequence order (a row is added when its sequence
    // number is given out), so it is found by bisection.
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), entry.sequence,
                                     [](const client::RequestLogEntry &row, quint64 sequence) {
                                         return row.sequence < sequence;
                                     });
    if (it != m_rows.end() && it->sequence == entry.sequence) {
        *it = entry;
        const int row = int(it - m_rows.begin());
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    if (it != m_rows.end()) {
        // Its pending row went over capacity meanwhile: back in order, not at the end.
        const int row = int(it - m_rows.begin());
        beginInsertRows({}, row, row);
        m_rows.insert(it, entry);
        endInsertRows();
        return;
    }
    appendRow(entry);
}

void RequestLogModel::appendRow(const client::RequestLogEntry &entry)
{
    if (m_rows.size() >= m_capacity) {
        beginRemoveRows({}, 0, 0);
        m_rows.pop_front();
        endRemoveRows();
    }
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.push_back(entry);
    endInsertRows();
}

QString RequestLogModel::routeText(const QString &route)
{
    // Our relay's shape (relay/README.md "Read routing"): "<pool>; reason=<r>[; replica=<name>;
    // age_ms=<n>]".
    const QStringList parts = route.split(QStringLiteral("; "));
    QString reason;
    QString replica;
    QString age;
    for (const QString &part : parts.mid(1)) {
        if (part.startsWith(QLatin1String("reason=")))
            reason = part.mid(7);
        else if (part.startsWith(QLatin1String("replica=")))
            replica = part.mid(8);
        else if (part.startsWith(QLatin1String("age_ms=")))
            age = part.mid(7);
    }
    if (parts.value(0) == QLatin1String("replica") && !replica.isEmpty() && !age.isEmpty())
        return tr("%1 · %2 · data ≤ %3 ms old", "served by: replica name, reason, data age")
            .arg(replica, reason, age);
    if (parts.value(0) == QLatin1String("writer") && !reason.isEmpty())
        return tr("writer · %1", "served by: the writer, and why").arg(reason);
    return route;
}

const client::RequestLogEntry *RequestLogModel::entryAt(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return nullptr;
    return &m_rows[std::size_t(row)];
}

int RequestLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RequestLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RequestLogModel::data(const QModelIndex &index, int role) const
{
    const client::RequestLogEntry *entry = entryAt(index.row());
    if (!entry)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Sequence:
            return entry->sequence;
        case Time:
            return entry->startedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
        case Caller:
            return entry->caller;
        case Method:
            return entry->method;
        case Consistency:
            return entry->consistencyName();
        case HttpStatus:
            return entry->httpStatus ? QVariant(entry->httpStatus) : QVariant(QStringLiteral("–"));
        case Status:
            if (entry->dropped > 0 && entry->status != QLatin1String("dropped"))
                return tr("%1 · %n dropped",
                          "a request's status, events of its answer that "
                          "failed verification",
                          entry->dropped)
                    .arg(entry->status);
            return entry->status;
        case Latency:
            return QString::number(entry->latencyMs, 'f', 1);
        case Route:
            return routeText(entry->route);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == Sequence || index.column() == Latency || index.column() == HttpStatus)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ForegroundRole && entry->status == QLatin1String("pending"))
        return QBrush(QColor(246, 116, 0));
    if (role == Qt::ForegroundRole && entry->dropped > 0)
        return QBrush(QColor(218, 68, 83));
    if (role == Qt::ForegroundRole && entry->status != QLatin1String("ok")
        && entry->status != QLatin1String("sent") && entry->status != QLatin1String("received"))
        return QBrush(QColor(218, 68, 83));
    if (role == Qt::ToolTipRole)
        return entry->errorDetail.isEmpty() ? client::RequestLog::formatLine(*entry)
                                            : entry->errorDetail;
    return {};
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Sequence:
        return tr("#");
    case Time:
        return tr("Time");
    case Caller:
        return tr("Caller");
    case Method:
        return tr("Request");
    case Consistency:
        return tr("Read");
    case HttpStatus:
        return tr("HTTP");
    case Status:
        return tr("Status");
    case Latency:
        return tr("ms");
    case Route:
        return tr("Served by");
    default:
        return {};
    }
}

} // namespace buzz::ui
