// The scenarios of test_canvas_session_model that take longer than one random step (a crash
// during continuous typing, a canvas opened behind a lagging replica, an outage while saving),
// and the staleness measurement. Part of SessionModelRun (SessionModelRun.cpp holds the random
// steps and the oracle).

#include "SessionModelRun.h"

#include "net/client/RelaySocket.h"
#include "relay/replication/sqlite/Replica.h"
#include "relay/replication/sqlite/ReplicaSet.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <algorithm>
#include <limits>

namespace buzz::test {

namespace {

// Every draft keystroke is on disk this long after it was typed, however one types.
constexpr qint64 kDraftOnDiskWithinMs = 2000;

QSet<QString> wordsIn(const QString &text)
{
    static const QRegularExpression word(QStringLiteral("u\\d+x\\d+"));
    QSet<QString> words;
    for (const auto &match : word.globalMatch(text))
        words.insert(match.captured());
    return words;
}

} // namespace

void SessionModelRun::sampleStaleness()
{
    const auto caughtUp = [this] {
        m_staleSince = -1;
        m_staleCounted = false;
    };
    // Measured only while the app could know better: a canvas on screen and the relay reachable
    // and answering. During an outage the connection banner says so; nothing is presented as
    // current then.
    if (!m_session || m_open < 0 || !m_session->isHeadKnown() || m_frozen || m_outage
        || m_user->connection->socket()->state() != client::RelaySocket::State::Connected)
        return caughtUp();
    const auto committed = m_relay.writerHead(m_channels[std::size_t(m_open)].id);
    const auto &shown = m_session->head();
    if (!committed || (shown && !committed->isNewerThan(*shown)))
        return caughtUp();
    const qint64 now = m_clock.elapsed();
    if (m_staleSince < 0)
        m_staleSince = now;
    const qint64 behind = now - m_staleSince;
    m_result.longestStaleMs = std::max(m_result.longestStaleMs, behind);
    if (behind > SessionModelRelay::kReadBudgetMs && !m_staleCounted) {
        m_staleCounted = true;
        ++m_result.staleBeyondBudget;
        m_result.problems << QStringLiteral("%1 shown as current %2 ms while the writer held %3")
                                 .arg(shown ? shown->eventId.left(12) : QStringLiteral("no canvas"))
                                 .arg(behind)
                                 .arg(committed->eventId.left(12));
    }
}

void SessionModelRun::crashWhileTyping()
{
    if (!m_session->isEditing() && !m_session->startEditing())
        return;
    // Words at random places, a keystroke every 30-230 ms for over 2 s: never the 1 s pause the
    // autosave's debounce waits for. Sometimes a save goes out in the middle.
    note(QStringLiteral("continuous typing"));
    const qint64 until = m_clock.elapsed() + 2100 + pick(600);
    const bool saveMidway = chance(30);
    while (m_clock.elapsed() < until && m_result.ok()) {
        type();
        if (saveMidway && chance(10))
            save();
        thinkTime(30 + pick(200));
    }
    crash();
}

void SessionModelRun::crash()
{
    const qint64 at = m_clock.elapsed();
    ++m_result.crashes;
    // Where the app's autosave stood at the kill, as the app itself reports it: when the pending
    // one falls due, and since when the newest text has been with the writer thread.
    const canvas::CanvasDrafts *drafts = m_session ? m_session->drafts() : nullptr;
    const std::optional<qint64> dueIn = drafts ? drafts->autosaveDueInMs() : std::nullopt;
    const std::optional<qint64> writingFor = drafts ? drafts->writingForMs() : std::nullopt;
    const QString autosave =
        QStringLiteral("autosave due in %1 ms, a write under way for %2 ms")
            .arg(dueIn ? QString::number(*dueIn) : QStringLiteral("none"),
                 writingFor ? QString::number(*writingFor) : QStringLiteral("none"));
    // Instants on m_clock; the ones that do not exist are never within a word's maximum wait.
    constexpr qint64 kNever = std::numeric_limits<qint64>::max() / 2;
    const qint64 dueAt = dueIn ? at + *dueIn : kNever;
    const qint64 handedOver = writingFor ? at - *writingFor : kNever;
    // The disk as the kill leaves it: the draft files complete on it at this instant (each is
    // written to a temporary file and renamed, so a copy sees the old or the new one).
    auto disk = std::make_unique<QTemporaryDir>();
    const QDir from(m_drafts->directory());
    for (const QString &name : from.entryList(QDir::Files))
        QFile::copy(from.filePath(name), QDir(disk->path()).filePath(name));
    note(QStringLiteral("crash (SIGKILL)"));
    // Its connections and everything in memory die with it (a request the relay already has may
    // still commit). The session's last writes go to the old directory, which the restarted app
    // never sees.
    m_relay.proxy.dropConnections();
    m_session.reset();
    m_drafts = std::make_unique<canvas::DraftStore>(disk->path());
    m_crashDirs.push_back(std::move(disk));

    QSet<QString> survived;
    for (const Channel &channel : m_channels) {
        for (const canvas::CanvasRevision &revision : revisionsOf(channel.id))
            survived += wordsIn(revision.content);
    }
    for (const canvas::Draft &draft : m_drafts->allDrafts())
        survived += wordsIn(draft.content);
    const QSet<QString> missing = m_mustSurvive - survived;
    for (const QString &word : missing) {
        const qint64 age = at - m_typedAt.value(word, at);
        m_mustSurvive.remove(word); // accounted for here, not again by the final oracle
        if (age < kDraftOnDiskWithinMs) {
            ++m_result.lostToCrash; // typed within the last 2 s: a kill may take it
            continue;
        }
        // Older, yet the app kept its promise if it acted on time and only the machine was slow
        // (the 2 s are the app's 1.5 s maximum wait plus the write): the write holding the word
        // was handed to the writer thread within the maximum wait and was still under way, or the
        // autosave for it fell due within the maximum wait and the event loop had not yet run.
        // A maximum wait restarted by later keystrokes, or a write never asked for, still fails.
        const qint64 typedAt = at - age;
        const qint64 latest = typedAt + canvas::CanvasDrafts::kAutosaveMaxDelayMs;
        const bool writing = typedAt <= handedOver && handedOver <= latest;
        const bool dueNotRun = dueAt <= at && dueAt <= latest;
        if (writing || dueNotRun) {
            ++m_result.lateUnderLoad;
            continue;
        }
        ++m_result.lost;
        m_result.problems << QStringLiteral("the crash lost %1, typed %2 ms before it (%3)")
                                 .arg(word)
                                 .arg(age)
                                 .arg(autosave);
    }
    // The app starts again on the same canvas and offers what the disk holds.
    openSession(m_open);
}

void SessionModelRun::openBehindLaggingReplica()
{
    // The replica stops applying (it lags more and more, still within the budget at first, so
    // display reads keep coming from it); another person saves; this user opens the canvas at
    // once, its live subscription going up right behind that save.
    const int target = pick(2);
    ++m_result.laggingOpens;
    note(QStringLiteral("replica lagging; other saves; canvas %1 opened at once").arg(target));
    m_relay.engine->replicaSet()->replica(0).setPaused(true);
    m_replicaPaused = true;
    closeSession();
    concurrentWrite(target);
    const qint64 opened = m_clock.elapsed();
    openSession(target);
    // The user looks at it. The staleness sampler measures how long it shows an older revision;
    // here the time it takes to catch up is noted as well.
    const QString id = m_channels[std::size_t(target)].id;
    const auto upToDate = [&] {
        const auto committed = m_relay.writerHead(id);
        const auto &shown = m_session->head();
        return !committed || (shown && !committed->isNewerThan(*shown));
    };
    if (upToDate())
        return;
    ++m_result.openedBehind;
    if (waitUntil(upToDate, SessionModelRelay::kReadBudgetMs + 3000))
        m_result.longestCatchUpMs = std::max(m_result.longestCatchUpMs, m_clock.elapsed() - opened);
    if (m_session && chance(50)) {
        m_relay.engine->replicaSet()->replica(0).setPaused(false);
        m_replicaPaused = false;
        note(QStringLiteral("replica resumed"));
    }
}

void SessionModelRun::outageAndReconnect()
{
    using State = canvas::CanvasSession::State;
    // A clean start: no fault armed, nothing held, the last write settled.
    m_relay.proxy.disarm();
    m_relay.proxy.release();
    thaw();
    if (!waitUntil([this] { return !m_session->isBusy(); }, 20000)
        || m_session->state() == State::OutcomeUnknown || m_session->state() == State::Merging)
        return;
    if (!m_session->isEditing() && !m_session->startEditing())
        return;
    ++m_result.outages;
    note(QStringLiteral("outage: the relay is unreachable"));
    m_outage = true;
    m_relay.proxy.setRefusing(true);
    m_relay.proxy.dropConnections();
    type();
    save();
    waitUntil([this] { return !m_session->isBusy(); }, 30000);
    type(); // typing goes on while offline
    thinkTime(200 + pick(600));
    const bool waiting = m_session->isWaitingForRelay();
    m_relay.proxy.setRefusing(false);
    m_outage = false;
    note(QStringLiteral("the relay is reachable again"));
    if (!waiting) {
        m_result.problems << QStringLiteral("a save that could not reach the relay does not wait "
                                            "for it");
        return;
    }
    // Nobody presses Retry: the save goes out by itself once the connection is back.
    if (waitUntil([this] { return !m_session->isWaitingForRelay() && !m_session->isBusy(); },
                  60000))
        ++m_result.retriedByItself;
    else
        m_result.problems << QStringLiteral("a save waiting for the relay was not retried by "
                                            "itself");
}

} // namespace buzz::test
