#include "SoakReport.h"

#include <QDateTime>
#include <QFile>
#include <QSysInfo>

namespace buzz::soak {

QString soakReport(const SoakConfig &config, const SoakLedger &ledger, const SoakCounts &counts,
                   double ranSeconds)
{
    QString skews;
    for (const qint64 skew : config.skews)
        skews += (skews.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(skew);
    QString out;
    out += QStringLiteral("# Consistency soak report\n\n");
    out += QStringLiteral(
               "%1, %2 s (ran %3 s), %4 clients (real CanvasService over HTTP), %5 canvases, %6 "
               "replicas, seed %7. Clock skews (s): %8.\n\n")
               .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
               .arg(config.seconds)
               .arg(ranSeconds, 0, 'f', 1)
               .arg(config.clients)
               .arg(config.channels)
               .arg(config.replicas)
               .arg(config.seed)
               .arg(skews);
    const auto row = [&out](const QString &name, qint64 value) {
        out += QStringLiteral("| %1 | %2 |\n").arg(name).arg(value);
    };
    out += QStringLiteral("| Count | Value |\n|---|---:|\n");
    row(QStringLiteral("histories (canvases checked on the writer)"), counts.histories);
    row(QStringLiteral("revisions in the writer histories"), counts.revisions);
    row(QStringLiteral("saves"), counts.saves);
    row(QStringLiteral("saved (verified)"), counts.savedVerified);
    row(QStringLiteral("unverified (saved, verification read failed)"), counts.savedUnverified);
    row(QStringLiteral("conflicts"), counts.conflicts);
    row(QStringLiteral("superseded"), counts.superseded);
    row(QStringLiteral("errors (nothing written)"), counts.errors);
    // Errors are expected: a third of the clients sign with clocks up to 900 s behind, and the
    // relay's strict supersede rule refuses a revision older than the head. Each reason shown.
    for (const auto &[reason, count] : counts.errorReasons)
        row(QStringLiteral("&nbsp;&nbsp;error: `%1`").arg(reason), count);
    row(QStringLiteral("outcome unknown after resubmit"), counts.outcomeUnknown);
    row(QStringLiteral("soft deletes accepted"), counts.deletes);
    row(QStringLiteral("soft deletes refused"), ledger.deletesRejected);
    row(QStringLiteral("backdated writes sent"), ledger.rawOlderWrites);
    row(QStringLiteral("backdated writes accepted"), ledger.rawOlderAccepted);
    row(QStringLiteral("backdated writes refused"), ledger.rawOlderRejected);
    row(QStringLiteral("replica faults injected"), ledger.faultsInjected);
    row(QStringLiteral("routed history pagings (complete)"), counts.pagedChannels);
    row(QStringLiteral("routed history pages"), counts.pages);
    row(QStringLiteral("rows newer than a first page served within the budget (allowed)"),
        counts.staleWithinBudget);
    row(QStringLiteral("**anomalies**"), counts.anomalies.size());
    out +=
        QStringLiteral(
            "\nSOAK histories=%1 saves=%2 conflicts=%3 superseded=%4 unverified=%5 anomalies=%6\n")
            .arg(counts.histories)
            .arg(counts.saves)
            .arg(counts.conflicts)
            .arg(counts.superseded)
            .arg(counts.savedUnverified)
            .arg(counts.anomalies.size());
    if (!counts.anomalies.isEmpty()) {
        out += QStringLiteral("\n## Anomalies\n\n");
        for (qsizetype i = 0; i < counts.anomalies.size() && i < 100; ++i)
            out += QStringLiteral("- %1\n").arg(counts.anomalies.at(i));
    }
    out += QStringLiteral("\nMachine: %1, %2.\n")
               .arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture());
    return out;
}

bool writeReport(const QString &path, const QString &report)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    return file.write(report.toUtf8()) >= 0;
}

} // namespace buzz::soak
