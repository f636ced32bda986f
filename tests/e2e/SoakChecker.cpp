#include "SoakChecker.h"

#include "SoakPaging.h"

#include "canvas/CanvasRevision.h"

namespace buzz::soak {

using canvas::SaveOutcome;

namespace {

QString idOf(const std::optional<canvas::CanvasRevision> &revision)
{
    return revision ? revision->eventId.toLower() : QString();
}

QString shortId(const QString &id)
{
    return id.left(12);
}

} // namespace

SoakChecker::SoakChecker(relay::RelayEngine &engine, std::string community,
                         std::string readerPubkey)
    : m_engine(engine)
    , m_community(std::move(community))
    , m_readerPubkey(std::move(readerPubkey))
{ }

SoakChecker::History SoakChecker::writerHistory(const QString &channel)
{
    History history;
    const relay::RequestContext context {m_community, m_readerPubkey, relay::Transport::Http};
    std::optional<std::int64_t> until;
    std::optional<std::string> beforeId;
    while (true) {
        nostr::Filter filter;
        filter.kinds = std::vector<int> {canvas::kCanvasKind};
        filter.tags['h'] = {channel.toStdString()};
        filter.limit = 1000;
        filter.consistency = nostr::Filter::Consistency::Strong;
        filter.until = until;
        filter.beforeId = beforeId;
        const auto result = m_engine.query({filter}, context, relay::ReadPath::BridgeQuery);
        if (result.status != relay::QueryResult::Status::Ok || result.events.empty())
            break;
        for (const auto &stored : result.events) {
            history.events.push_back(stored.event);
            history.ids.insert(QString::fromStdString(stored.event.id));
        }
        if (result.events.size() < 1000)
            break;
        until = result.events.back().event.createdAt;
        beforeId = result.events.back().event.id;
    }
    return history;
}

std::set<QString> SoakChecker::ancestry(const QString &head) const
{
    std::set<QString> seen;
    QString at = head;
    while (!at.isEmpty() && at != QLatin1String(canvas::kExpectedNone) && seen.insert(at).second) {
        const auto link = m_links.find(at);
        if (link == m_links.end())
            break;
        at = link->second;
    }
    return seen;
}

// A Conflict is real when the writer's history (or our own accepted writes) shows a write other
// than ours built on the same base, or the base itself was deleted: only those move a head away.
bool SoakChecker::hasCompetitor(const SaveRecord &save, const SoakLedger &ledger) const
{
    const QString base =
        save.baseId ? save.baseId->toLower() : QString::fromLatin1(canvas::kExpectedNone);
    if (save.baseId && ledger.deleteRequested.count(base))
        return true;
    const QString ours =
        save.outcome.pending ? QString::fromStdString(save.outcome.pending->id) : QString();
    for (const auto &[id, expected] : m_links) {
        if (expected == base && id != ours && m_channelOf.at(id) == save.channel)
            return true;
    }
    return false;
}

SoakCounts SoakChecker::check(const SoakLedger &ledger, const QStringList &channels)
{
    SoakCounts counts;
    std::map<QString, History> histories;
    for (const QString &channel : channels) {
        History history = writerHistory(channel);
        for (const auto &event : history.events) {
            const QString id = QString::fromStdString(event.id);
            const std::string *expected = event.tagValue("expected-revision");
            if (expected)
                m_links[id] = QString::fromStdString(*expected).toLower();
            m_channelOf[id] = channel;
        }
        counts.revisions += int(history.events.size());
        ++counts.histories;
        histories.emplace(channel, std::move(history));
    }
    // Deleted revisions are gone from the writer's reads; their links come from the ledger.
    for (const auto &[id, revision] : ledger.accepted) {
        if (revision.expectedRevision && !m_links.count(id))
            m_links[id] = revision.expectedRevision->toLower();
        m_channelOf.emplace(id, revision.channel);
    }
    std::map<QString, std::set<QString>> ancestors;
    for (const auto &[channel, history] : histories)
        ancestors[channel] = history.events.empty()
            ? std::set<QString> {}
            : ancestry(QString::fromStdString(history.events.front().id));

    auto anomaly = [&counts](QString text) {
        counts.anomalies.push_back(std::move(text));
    };
    for (const SaveRecord &save : ledger.saves) {
        ++counts.saves;
        const SaveOutcome &outcome = save.outcome;
        const QString channel = save.channel;
        switch (outcome.kind) {
        case SaveOutcome::Kind::SavedVerified:
        case SaveOutcome::Kind::SavedUnverified: {
            outcome.kind == SaveOutcome::Kind::SavedVerified ? ++counts.savedVerified
                                                             : ++counts.savedUnverified;
            const QString id = idOf(outcome.saved);
            if (!ledger.deleteRequested.count(id) && !ancestors[channel].count(id))
                anomaly(QStringLiteral(
                            "client %1 was told Saved for %2 in %3, which is neither head nor an "
                            "ancestor of the head")
                            .arg(save.client)
                            .arg(shortId(id), channel));
            break;
        }
        case SaveOutcome::Kind::Conflict:
            ++counts.conflicts;
            if (!hasCompetitor(save, ledger))
                anomaly(QStringLiteral(
                            "client %1 got Conflict on %2 (base %3) with no competing write in the "
                            "writer history")
                            .arg(save.client)
                            .arg(channel, shortId(save.baseId.value_or(QStringLiteral("none")))));
            break;
        case SaveOutcome::Kind::Superseded: {
            ++counts.superseded;
            const QString ours = idOf(outcome.saved);
            const QString head = idOf(outcome.head);
            if (head.isEmpty() || head == ours || ancestry(head).count(ours))
                anomaly(QStringLiteral(
                            "client %1 got Superseded for %2 in %3, but head %4 builds on it")
                            .arg(save.client)
                            .arg(shortId(ours), channel, shortId(head)));
            else if (!m_links.count(head) && !histories[channel].ids.count(head))
                anomaly(QStringLiteral(
                            "client %1 got Superseded by %2 in %3, which the writer never stored")
                            .arg(save.client)
                            .arg(shortId(head), channel));
            break;
        }
        case SaveOutcome::Kind::OutcomeUnknown:
            ++counts.outcomeUnknown;
            break;
        case SaveOutcome::Kind::AlreadyCurrent:
            break;
        case SaveOutcome::Kind::Error:
            ++counts.errors;
            ++counts.errorReasons[outcome.error ? outcome.error->message.left(80)
                                                : QStringLiteral("(no relay error)")];
            break;
        }
    }

    for (const auto &[id, revision] : ledger.accepted) {
        const bool present = histories[revision.channel].ids.count(id) > 0;
        if (ledger.deleted.count(id)) {
            if (present)
                anomaly(QStringLiteral(
                            "revision %1 in %2 is still served after its delete was accepted")
                            .arg(shortId(id), revision.channel));
        } else if (!present && !ledger.deleteRequested.count(id)) {
            anomaly(QStringLiteral("accepted revision %1 in %2 is missing from the writer history")
                        .arg(shortId(id), revision.channel));
        }
    }
    counts.deletes = int(ledger.deleted.size());

    for (const PagingRecord &paging : ledger.pagings) {
        ++counts.pagedChannels;
        counts.pages += paging.pages;
        const std::int64_t budget = ledger.maxBudgetMs(paging.startMs, paging.endMs);
        for (const QString &id : paging.committedBefore) {
            if (paging.paged.count(id) || ledger.deleteRequested.count(id))
                continue;
            const AcceptedRevision &row = ledger.accepted.at(id);
            if (classifyPagingMiss(paging, row.createdAt, id) == PagingMiss::BelowFirstPage) {
                anomaly(
                    QStringLiteral("paging %1 through routed reads skipped %2 below the first page "
                                   "(a continuation page was incomplete)")
                        .arg(paging.channel, shortId(id)));
            } else if (row.ackMs < paging.startMs - budget) {
                anomaly(
                    QStringLiteral("paging %1: the first routed page missed %2, acknowledged %3 ms "
                                   "before paging began (budget %4 ms)")
                        .arg(paging.channel, shortId(id))
                        .arg(paging.startMs - row.ackMs)
                        .arg(budget));
            } else {
                ++counts.staleWithinBudget;
            }
        }
    }
    return counts;
}

} // namespace buzz::soak
