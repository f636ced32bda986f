#pragma once

// What the soak's clients observed, in the order they observed it: every save outcome, every
// accepted canvas event with the revision it was based on, every soft delete. The checker compares
// this against the writer's final history.

#include "canvas/SaveOutcome.h"

#include <QDateTime>
#include <QString>

#include <algorithm>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace buzz::soak {

// One canvas event the relay acknowledged (OK / 200 accepted) to a soak client.
struct AcceptedRevision
{
    QString id;
    QString channel;
    std::optional<QString> expectedRevision; // "none", a 64-hex id, or untagged
    qint64 createdAt = 0;
    qint64 ackMs = 0; // wall time the client learned it was accepted (≥ its commit time)
};

// One CanvasService::save (or an out-of-order raw write) and what it reported.
struct SaveRecord
{
    int client = 0;
    QString channel;
    canvas::SaveOutcome outcome;
    std::optional<QString> baseId; // the base the edit started from (nullopt: no canvas)
};

struct PagingRecord
{
    QString channel;
    std::set<QString> committedBefore; // acknowledged before the first page was requested
    std::set<QString> paged; // every id the routed pages returned
    int pages = 0;
    qint64 startMs = 0; // before the first page was requested
    qint64 endMs = 0;
    // The first page's newest row: rows newer than it were never in the paged key range.
    std::optional<std::pair<qint64, QString>> firstTop;
    // Its oldest row: the later (Covered) pages owed every row below it.
    std::optional<std::pair<qint64, QString>> firstBottom;
};

struct SoakLedger
{
    std::vector<SaveRecord> saves;
    std::map<QString, AcceptedRevision> accepted; // id → revision
    std::set<QString> deleteRequested; // targets of every kind-5 sent (accepted or not)
    std::set<QString> deleted; // targets of accepted kind-5s
    std::vector<PagingRecord> pagings;
    int deletesRejected = 0;
    int rawOlderWrites = 0;
    int rawOlderAccepted = 0;
    int rawOlderRejected = 0;
    int faultsInjected = 0;
    std::vector<std::pair<qint64, std::int64_t>> budgetChanges; // (wall ms, routing budget ms)

    // The largest routing budget in force at any time in [fromMs, toMs].
    std::int64_t maxBudgetMs(qint64 fromMs, qint64 toMs) const
    {
        std::int64_t result = 0;
        for (std::size_t i = 0; i < budgetChanges.size(); ++i) {
            const qint64 until = i + 1 < budgetChanges.size() ? budgetChanges[i + 1].first : toMs;
            if (budgetChanges[i].first <= toMs && until >= fromMs)
                result = std::max(result, budgetChanges[i].second);
        }
        return result;
    }

    void accept(const canvas::CanvasRevision &revision)
    {
        accepted[revision.eventId.toLower()] = AcceptedRevision {
            revision.eventId.toLower(), revision.channel, revision.expectedRevision,
            revision.createdAt, QDateTime::currentMSecsSinceEpoch()};
    }
    std::set<QString> acceptedIn(const QString &channel) const
    {
        std::set<QString> ids;
        for (const auto &[id, revision] : accepted) {
            if (revision.channel == channel)
                ids.insert(id);
        }
        return ids;
    }
};

} // namespace buzz::soak
