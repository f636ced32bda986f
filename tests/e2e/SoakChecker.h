#pragma once

// The soak's verdict: reads each channel's full canvas history from the writer (strong reads,
// straight from the engine) and checks the ledger against it.

#include "SoakLedger.h"

#include "relay/RelayEngine.h"

#include <QStringList>

#include <map>
#include <set>

namespace buzz::soak {

struct SoakCounts
{
    int histories = 0;
    int revisions = 0; // canvas events in the writer's final histories
    int saves = 0;
    int savedVerified = 0;
    int savedUnverified = 0;
    int conflicts = 0;
    int superseded = 0;
    int errors = 0;
    std::map<QString, int> errorReasons; // the relay's message (or local reason) → how many
    int outcomeUnknown = 0;
    int deletes = 0;
    int pagedChannels = 0;
    int pages = 0;
    // Rows newer than a first page served within the routing budget (bounded staleness, allowed).
    int staleWithinBudget = 0;
    QStringList anomalies;
};

class SoakChecker
{
public:
    SoakChecker(relay::RelayEngine &engine, std::string community, std::string readerPubkey);

    SoakCounts check(const SoakLedger &ledger, const QStringList &channels);

private:
    struct History
    {
        std::vector<nostr::Event> events; // newest first, non-deleted
        std::set<QString> ids;
    };
    History writerHistory(const QString &channel);
    // Every event reachable from `head` through expected-revision links (head included).
    std::set<QString> ancestry(const QString &head) const;
    bool hasCompetitor(const SaveRecord &save, const SoakLedger &ledger) const;

    relay::RelayEngine &m_engine;
    std::string m_community;
    std::string m_readerPubkey;
    std::map<QString, QString> m_links; // id → expected-revision (ids and "none")
    std::map<QString, QString> m_channelOf;
};

} // namespace buzz::soak
