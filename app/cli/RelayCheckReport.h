#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace buzz::cli {

// The rows of `buzz-canvas-cli relay check`: each says pass, fail or not applicable, what was
// expected, and on failure what the relay answered instead. Printed as text (one line a row) or
// as one JSON object (--json).
class RelayCheckReport
{
public:
    enum class Status { Pass, Fail, NotApplicable };
    struct Row
    {
        QString id; // stable, e.g. "cas.stale_base": scripts and tests select rows by it
        QString expected; // what the relay must do, in the relay's words where it has them
        Status status = Status::Pass;
        QString observed; // what it did instead (a failure), or why not applicable
        QString figures; // measurements worth showing on any outcome (latencies, counts)
    };

    void pass(const QString &id, const QString &expected, const QString &figures = {});
    void fail(const QString &id, const QString &expected, const QString &observed,
              const QString &figures = {});
    void notApplicable(const QString &id, const QString &expected, const QString &why);
    // pass when `ok`, else fail with `observed`.
    void check(bool ok, const QString &id, const QString &expected, const QString &observed,
               const QString &figures = {});

    const std::vector<Row> &rows() const { return m_rows; }
    const Row *row(const QString &id) const;
    bool anyFailed() const;
    QStringList failedIds() const;

    QJsonObject toJson(const QString &relay, const QString &channel) const;
    QString toText(const QString &relay, const QString &channel) const;
    static QString statusName(Status status); // "pass", "fail", "not_applicable"

private:
    std::vector<Row> m_rows;
};

} // namespace buzz::cli
