#pragma once

// One seeded run of test_canvas_session_model: user actions and faults on a CanvasSession, then
// the oracle.

#include "SessionModelRelay.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasSession.h"
#include "canvas/DraftStore.h"
#include "net/client/RelayConnection.h"

#include <QSet>
#include <QStringList>
#include <QTemporaryDir>

#include <qcoro/qcorotask.h>

#include <functional>
#include <memory>
#include <random>

namespace buzz::test {

// One user of the canvas: key, connection through the proxy, service.
struct SessionModelClient
{
    std::shared_ptr<const nostr::SecretKey> key;
    std::unique_ptr<client::RelayConnection> connection;
    std::unique_ptr<canvas::CanvasService> service;
    explicit SessionModelClient(const QUrl &url);
};

struct SessionModelResult
{
    quint64 seed = 0;
    int lost = 0;
    int routedGatingReads = 0;
    int unsentRevisions = 0;
    int duplicateRevisions = 0;
    int saves = 0;
    int laterChangesKept = 0;
    int retries = 0;
    int restores = 0;
    int merges = 0;
    int faults = 0;
    int refused409 = 0; // the user's writes the relay answered 409 (a concurrent writer won)
    int gateway = 0; // the user's writes answered 502/504
    QStringList problems;
    QStringList actions;

    bool ok() const { return problems.isEmpty(); }
    QString report() const;
};

struct SessionModelTotals
{
    int sequences = 0, lost = 0, routedGatingReads = 0, unsentRevisions = 0, duplicateRevisions = 0,
        saves = 0, laterChangesKept = 0, retries = 0, restores = 0, merges = 0, faults = 0,
        refused409 = 0, gateway = 0;
    void add(const SessionModelResult &result);
};

class SessionModelRun
{
public:
    SessionModelRun(SessionModelRelay &relay, quint64 seed);
    ~SessionModelRun();
    SessionModelResult execute();

private:
    struct Channel
    {
        QString id;
    };

    void step();
    void openSession(int channel);
    void closeSession();
    void type();
    void save();
    void restore();
    void concurrentWrite(int channel);
    void injectFault();
    void acceptOffers();
    void thinkTime(int ms);
    // Runs a task to its end (or gives up after `timeoutMs`), pumping events like waitUntil.
    template<class T>
    std::optional<T> finish(QCoro::Task<T> task, int timeoutMs = 20000)
    {
        auto result = std::make_shared<std::optional<T>>();
        QObject guard; // an answer after the timeout is dropped with it
        QCoro::connect(std::move(task), &guard, [result](T value) { *result = std::move(value); });
        waitUntil([&result] { return result->has_value(); }, timeoutMs);
        return *result;
    }
    void thaw(); // a frozen relay answers again
    bool waitUntil(const std::function<bool()> &condition, int timeoutMs);
    void settleEverything();
    void checkOracle();
    std::vector<canvas::CanvasRevision> revisionsOf(const QString &channel);
    int pick(int below) { return int(std::uniform_int_distribution<int>(0, below - 1)(m_random)); }
    bool chance(int percent) { return pick(100) < percent; }
    void note(const QString &action);

    SessionModelRelay &m_relay;
    std::mt19937_64 m_random;
    SessionModelResult m_result;
    QTemporaryDir m_draftDir;
    std::unique_ptr<canvas::DraftStore> m_drafts;
    std::unique_ptr<SessionModelClient> m_user;
    std::unique_ptr<SessionModelClient> m_other;
    std::vector<Channel> m_channels;
    int m_open = -1;
    std::unique_ptr<canvas::CanvasSession> m_session;
    int m_tokens = 0;
    QSet<QString> m_mustSurvive; // words typed and not discarded
    QSet<QString> m_sent; // texts the user asked to save, restore or merge
    bool m_replicaPaused = false;
    bool m_frozen = false;
};

} // namespace buzz::test
