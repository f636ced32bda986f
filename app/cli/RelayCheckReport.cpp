#include "RelayCheckReport.h"

#include <QJsonArray>

namespace buzz::cli {

void RelayCheckReport::pass(const QString &id, const QString &expected, const QString &figures)
{
    m_rows.push_back(Row {id, expected, Status::Pass, {}, figures});
}

void RelayCheckReport::fail(const QString &id, const QString &expected, const QString &observed,
                            const QString &figures)
{
    m_rows.push_back(Row {id, expected, Status::Fail, observed, figures});
}

void RelayCheckReport::notApplicable(const QString &id, const QString &expected, const QString &why)
{
    m_rows.push_back(Row {id, expected, Status::NotApplicable, why, {}});
}

void RelayCheckReport::check(bool ok, const QString &id, const QString &expected,
                             const QString &observed, const QString &figures)
{
    if (ok)
        pass(id, expected, figures);
    else
        fail(id, expected, observed, figures);
}

const RelayCheckReport::Row *RelayCheckReport::row(const QString &id) const
{
    for (const Row &row : m_rows) {
        if (row.id == id)
            return &row;
    }
    return nullptr;
}

bool RelayCheckReport::anyFailed() const
{
    return !failedIds().isEmpty();
}

QStringList RelayCheckReport::failedIds() const
{
    QStringList ids;
    for (const Row &row : m_rows) {
        if (row.status == Status::Fail)
            ids << row.id;
    }
    return ids;
}

QString RelayCheckReport::statusName(Status status)
{
    switch (status) {
    case Status::Pass:
        return QStringLiteral("pass");
    case Status::Fail:
        return QStringLiteral("fail");
    case Status::NotApplicable:
        return QStringLiteral("not_applicable");
    }
    return QStringLiteral("fail");
}

QJsonObject RelayCheckReport::toJson(const QString &relay, const QString &channel) const
{
    QJsonArray rows;
    int counts[3] = {0, 0, 0};
    for (const Row &row : m_rows) {
        QJsonObject object {{QStringLiteral("id"), row.id},
                            {QStringLiteral("status"), statusName(row.status)},
                            {QStringLiteral("expected"), row.expected}};
        if (row.status == Status::Fail)
            object.insert(QStringLiteral("observed"), row.observed);
        if (row.status == Status::NotApplicable)
            object.insert(QStringLiteral("why"), row.observed);
        if (!row.figures.isEmpty())
            object.insert(QStringLiteral("figures"), row.figures);
        rows.append(object);
        ++counts[static_cast<int>(row.status)];
    }
    return QJsonObject {
        {QStringLiteral("relay"), relay},
        {QStringLiteral("channel"), channel},
        {QStringLiteral("ok"), counts[static_cast<int>(Status::Fail)] == 0},
        {QStringLiteral("passed"), counts[static_cast<int>(Status::Pass)]},
        {QStringLiteral("failed"), counts[static_cast<int>(Status::Fail)]},
        {QStringLiteral("not_applicable"), counts[static_cast<int>(Status::NotApplicable)]},
        {QStringLiteral("rows"), rows}};
}

QString RelayCheckReport::toText(const QString &relay, const QString &channel) const
{
    QString text = QStringLiteral("relay check of %1 (throwaway channel %2)\n")
                       .arg(relay, channel.isEmpty() ? QStringLiteral("none") : channel);
    qsizetype width = 0;
    for (const Row &row : m_rows)
        width = std::max(width, row.id.size());
    int counts[3] = {0, 0, 0};
    for (const Row &row : m_rows) {
        static const char *const labels[] = {"pass", "FAIL", "n/a "};
        text += QStringLiteral("%1  %2  %3")
                    .arg(QLatin1String(labels[static_cast<int>(row.status)]),
                         row.id.leftJustified(width), row.expected);
        if (!row.figures.isEmpty())
            text += QStringLiteral(" [") + row.figures + QLatin1Char(']');
        if (row.status == Status::Fail)
            text += QStringLiteral("\n      observed: ") + row.observed;
        else if (row.status == Status::NotApplicable)
            text += QStringLiteral(" (") + row.observed + QLatin1Char(')');
        text += QLatin1Char('\n');
        ++counts[static_cast<int>(row.status)];
    }
    text += QStringLiteral("%1 passed, %2 failed, %3 not applicable\n")
                .arg(counts[0])
                .arg(counts[1])
                .arg(counts[2]);
    return text;
}

} // namespace buzz::cli
