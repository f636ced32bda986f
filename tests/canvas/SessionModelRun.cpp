#include "SessionModelRun.h"

#include "canvas/Merge3.h"
#include "canvas/SessionInvariants.h"
#include "net/client/HttpBridgeClient.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"
#include "relay/replication/sqlite/Replica.h"
#include "relay/replication/sqlite/ReplicaSet.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <cstdio>

namespace buzz::test {

namespace {

const QString kRelayKey = QStringLiteral("model-relay");
const QString kCommunity = QStringLiteral("model");
// The reads that gate a write (CanvasService's caller labels): each must be strong.
const QSet<QString> kGatingCallers {
    QStringLiteral("canvas_precondition"), QStringLiteral("canvas_ancestry"),
    QStringLiteral("canvas_existence"), QStringLiteral("canvas_restore_target"),
    QStringLiteral("canvas_draft_base")};

// The pubkey of the NIP-98 header of a proxied request ("" when there is none).
QString signerOf(const RecordingProxy::Request &request)
{
    QByteArray header = request.authorization;
    if (!header.startsWith("Nostr "))
        return {};
    const QJsonObject event =
        QJsonDocument::fromJson(QByteArray::fromBase64(header.mid(6))).object();
    return event.value(QLatin1String("pubkey")).toString();
}

// Faults hit only the user's own requests: the concurrent writer is another person on another
// network path.
RecordingProxy::Predicate forUser(const QString &pubkey, RecordingProxy::Predicate predicate)
{
    return [pubkey, predicate](const RecordingProxy::Request &request) {
        return predicate(request) && signerOf(request) == pubkey;
    };
}

QSet<QString> wordsOf(const QString &text)
{
    static const QRegularExpression word(QStringLiteral("u\\d+x\\d+"));
    QSet<QString> words;
    for (const auto &match : word.globalMatch(text))
        words.insert(match.captured());
    return words;
}

QString merged(const canvas::CanvasSession::MergeOffer &offer)
{
    // The user keeps both sides of every conflicting part ("Use both"): nothing of theirs or
    // mine is dropped.
    const canvas::MergeResult result = canvas::Merge3::merge(
        offer.baseText, offer.mine, offer.theirs ? offer.theirs->content : QString());
    return result.resolve(std::vector<canvas::MergeResult::Choice>(
        std::size_t(result.conflictCount()), canvas::MergeResult::Choice::MineThenTheirs));
}

} // namespace

SessionModelClient::SessionModelClient(const QUrl &url)
    : key(std::make_shared<const nostr::SecretKey>(nostr::SecretKey::generate()))
    , connection(std::make_unique<client::RelayConnection>(url))
{
    connection->signer()->setKey(key);
    service = std::make_unique<canvas::CanvasService>(connection.get());
    watch = std::make_unique<canvas::CanvasWatch>(connection.get(), service.get());
}

QString SessionModelResult::report() const
{
    return QStringLiteral("  problems: %1\n  actions: %2")
        .arg(problems.join(QStringLiteral("; ")), actions.join(QStringLiteral(", ")));
}

void SessionModelTotals::add(const SessionModelResult &result)
{
    ++sequences;
    lost += result.lost;
    routedGatingReads += result.routedGatingReads;
    unsentRevisions += result.unsentRevisions;
    duplicateRevisions += result.duplicateRevisions;
    saves += result.saves;
    laterChangesKept += result.laterChangesKept;
    retries += result.retries;
    restores += result.restores;
    merges += result.merges;
    faults += result.faults;
    refused409 += result.refused409;
    gateway += result.gateway;
    staleBeyondBudget += result.staleBeyondBudget;
    longestStaleMs = std::max(longestStaleMs, result.longestStaleMs);
    crashes += result.crashes;
    lostToCrash += result.lostToCrash;
    lateUnderLoad += result.lateUnderLoad;
    laggingOpens += result.laggingOpens;
    openedBehind += result.openedBehind;
    longestCatchUpMs = std::max(longestCatchUpMs, result.longestCatchUpMs);
    outages += result.outages;
    retriedByItself += result.retriedByItself;
}

SessionModelRun::SessionModelRun(SessionModelRelay &relay, quint64 seed)
    : m_relay(relay)
    , m_random(seed)
    , m_drafts(std::make_unique<canvas::DraftStore>(m_draftDir.path()))
    , m_user(std::make_unique<SessionModelClient>(relay.proxy.url()))
    , m_other(std::make_unique<SessionModelClient>(relay.proxy.url()))
{
    m_result.seed = seed;
    m_clock.start();
    m_staleness.setInterval(100);
    QObject::connect(&m_staleness, &QTimer::timeout, [this] { sampleStaleness(); });
    m_staleness.start();
}

void SessionModelRun::note(const QString &action)
{
    m_result.actions << action;
    static const bool trace = qEnvironmentVariableIsSet("BUZZ_MODEL_TRACE");
    if (trace)
        std::fprintf(stderr, "seed %llu: %s\n", static_cast<unsigned long long>(m_result.seed),
                     qPrintable(action));
}

SessionModelRun::~SessionModelRun()
{
    m_staleness.stop();
    m_session.reset();
    m_relay.proxy.setRefusing(false);
    m_relay.proxy.disarm();
    m_relay.proxy.release();
    thaw();
}

bool SessionModelRun::waitUntil(const std::function<bool()> &condition, int timeoutMs)
{
    // Event-driven: each answer, signal or tick re-checks the condition. A request the proxy has
    // held for a while is released: the user cannot go on without it.
    QElapsedTimer elapsed;
    elapsed.start();
    QTimer tick;
    tick.start(20);
    qint64 heldSince = -1;
    while (!condition()) {
        if (elapsed.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        if (m_frozen && elapsed.elapsed() > 100)
            thaw();
        if (!m_relay.proxy.isHolding()) {
            heldSince = -1;
        } else if (heldSince < 0) {
            heldSince = elapsed.elapsed();
        } else if (elapsed.elapsed() - heldSince > 100) {
            note(QStringLiteral("release (waiting)"));
            m_relay.proxy.release();
        }
    }
    return true;
}

SessionModelResult SessionModelRun::execute()
{
    for (int i = 0; i < 2; ++i)
        m_channels.push_back(Channel {m_relay.createChannel()});
    if (m_channels[0].id.isEmpty() || m_channels[1].id.isEmpty()) {
        m_result.problems << QStringLiteral("could not create channels");
        return m_result;
    }
    openSession(0);
    const int steps = 15 + pick(25);
    for (int i = 0; i < steps && m_result.ok(); ++i)
        step();
    if (m_result.ok() && m_session) {
        switch (m_result.seed % 20) {
        case 3:
            crashWhileTyping();
            break;
        case 8:
        case 18:
            openBehindLaggingReplica();
            break;
        case 13:
            outageAndReconnect();
            break;
        default:
            break;
        }
        for (int i = 0; i < 5 && m_result.ok() && m_session; ++i)
            step();
    }
    settleEverything();
    checkOracle();
    return m_result;
}

void SessionModelRun::openSession(int channel)
{
    m_open = channel;
    m_staleSince = -1; // a new canvas on screen: staleness is measured from now
    m_staleCounted = false;
    m_session = std::make_unique<canvas::CanvasSession>(
        m_user->service.get(), m_user->watch.get(), m_channels[std::size_t(channel)].id,
        canvas::DraftScope {m_drafts.get(), kRelayKey, kCommunity});
    // Every state the session enters agrees with what it carries (release builds too).
    QObject::connect(m_session.get(), &canvas::CanvasSession::stateChanged, m_session.get(),
                     [this, session = m_session.get()](canvas::CanvasSession::State state) {
                         const QStringList broken = canvas::SessionInvariants::broken(*session);
                         if (!broken.isEmpty())
                             m_result.problems << QStringLiteral("state %1: %2")
                                                      .arg(int(state))
                                                      .arg(broken.join(QStringLiteral("; ")));
                     });
    QObject::connect(m_session.get(), &canvas::CanvasSession::settled, m_session.get(),
                     [this](const canvas::CanvasSession::Settled &settled) {
                         if (settled.operation == canvas::CanvasSession::Operation::Save) {
                             ++m_result.saves;
                             m_result.laterChangesKept += settled.laterChangesUnsaved ? 1 : 0;
                         } else {
                             ++m_result.restores;
                         }
                         note(QStringLiteral("settled %1").arg(settled.outcome.kindName()));
                     });
    for (int attempt = 0; attempt < 3; ++attempt) {
        bool done = false;
        const auto connection =
            QObject::connect(m_session.get(), &canvas::CanvasSession::loadFinished, m_session.get(),
                             [&done] { done = true; });
        m_session->load();
        waitUntil([&] { return done; }, 15000);
        QObject::disconnect(connection);
        if (m_session->isHeadKnown())
            break;
    }
    note(QStringLiteral("open %1").arg(channel));
    if (!m_session->isHeadKnown())
        return;
    // The draft banner: the user restores an offered draft most of the time.
    if (const auto draft = m_session->draftToOffer(); draft && chance(70)) {
        bool failed = false;
        const auto connection =
            QObject::connect(m_session.get(), &canvas::CanvasSession::draftFailed, m_session.get(),
                             [&failed] { failed = true; });
        m_session->restoreDraft(*draft);
        waitUntil([&] { return failed || m_session->isEditing(); }, 15000);
        QObject::disconnect(connection);
        note(QStringLiteral("restore draft"));
    }
}

void SessionModelRun::closeSession()
{
    m_session.reset(); // flushes its draft, drops its answers
    note(QStringLiteral("close %1").arg(m_open));
    m_open = -1;
}

void SessionModelRun::step()
{
    acceptOffers();
    const int roll = pick(100);
    if (roll < 38) {
        type();
    } else if (roll < 50) {
        save();
    } else if (roll < 55) {
        if (m_session->canRetry()) {
            ++m_result.retries;
            note(QStringLiteral("retry"));
            m_session->retry();
        }
    } else if (roll < 59) {
        restore();
    } else if (roll < 62) {
        note(QStringLiteral("reload"));
        m_session->load();
    } else if (roll < 64) {
        if (m_session->isEditing() && !m_session->isBusy() && m_session->hasUnsavedChanges()) {
            // The user confirmed "Discard your unsaved changes?": those words are given up.
            m_mustSurvive -= wordsOf(m_session->workingText()) - wordsOf(m_session->baseText());
            note(QStringLiteral("discard"));
            m_session->discardEdit();
        }
    } else if (roll < 66) {
        note(QStringLiteral("leave"));
        m_session->leaveEditing();
    } else if (roll < 70) {
        const int next = 1 - m_open;
        closeSession();
        openSession(next);
    } else if (roll < 76) {
        concurrentWrite(chance(80) ? m_open : 1 - m_open);
    } else if (roll < 88) {
        injectFault();
    } else if (roll < 92) {
        if (m_relay.proxy.isHolding() || m_frozen) {
            note(QStringLiteral("release"));
            m_relay.proxy.release();
            thaw();
        }
    } else {
        thinkTime(1 + pick(20));
    }
    thinkTime(pick(4));
}

void SessionModelRun::thaw()
{
    if (!m_frozen)
        return;
    note(QStringLiteral("relay thawed"));
    m_relay.proxy.setFrozen(false);
    m_frozen = false;
}

void SessionModelRun::thinkTime(int ms)
{
    // Random user think time between actions, so answers interleave differently with them.
    // Nothing waits on it for correctness: every wait that matters is on a condition.
    if (ms <= 0)
        return;
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

void SessionModelRun::type()
{
    if (!m_session->isEditing() && !m_session->startEditing())
        return;
    const QString word = QStringLiteral("u%1x%2").arg(m_result.seed).arg(++m_tokens);
    QStringList lines = m_session->workingText().split(QLatin1Char('\n'));
    if (!lines.isEmpty() && chance(60)) {
        QString &line = lines[pick(int(lines.size()))];
        line += line.isEmpty() ? word : QLatin1Char(' ') + word;
    } else {
        lines.insert(pick(int(lines.size()) + 1), word);
    }
    const QString text = lines.join(QLatin1Char('\n'));
    m_session->setWorkingText(text);
    m_mustSurvive.insert(word);
    m_typedAt.insert(word, m_clock.elapsed());
    m_sent.insert(text);
    note(QStringLiteral("type %1").arg(m_tokens));
}

void SessionModelRun::save()
{
    if (!m_session->isEditing())
        return;
    note(QStringLiteral("save"));
    m_session->save();
}

void SessionModelRun::restore()
{
    if (!m_session->canRestore())
        return;
    // What the History list shows (a display read) and the head frozen as the dialog opens.
    const QString channel = m_channels[std::size_t(m_open)].id;
    const auto page = finish(m_user->service->history(channel));
    if (!page || !*page || (*page)->revisions.empty() || !m_session)
        return;
    const auto &revisions = (*page)->revisions;
    const canvas::CanvasRevision target = revisions[std::size_t(pick(int(revisions.size())))];
    const auto &head = m_session->head();
    m_sent.insert(target.content);
    note(QStringLiteral("restore"));
    m_session->restore(target.eventId, head ? std::optional<QString>(head->eventId) : std::nullopt);
}

void SessionModelRun::concurrentWrite(int channel)
{
    const QString id = m_channels[std::size_t(channel)].id;
    const auto head = finish(m_other->service->head(id, canvas::ReadIntent::Strong));
    if (!head || !*head)
        return;
    const auto &current = **head;
    const QString base = current ? current->content : QString();
    const auto outcome = finish(m_other->service->save(
        id, current, base + QStringLiteral("\nother %1").arg(pick(1000000))));
    note(QStringLiteral("other writes %1: %2")
             .arg(channel)
             .arg(outcome ? outcome->kindName() : QStringLiteral("gave up")));
}

void SessionModelRun::injectFault()
{
    using Fault = RecordingProxy::Fault;
    RecordingProxy &proxy = m_relay.proxy;
    const QString user = QString::fromStdString(m_user->key->publicKeyHex());
    const auto events = forUser(user, RecordingProxy::eventsPost());
    const auto strongRead = forUser(user, RecordingProxy::queryContaining("\"strong\""));
    const auto existence = forUser(user, RecordingProxy::queryContaining("\"ids\""));
    ++m_result.faults;
    switch (pick(12)) {
    case 0:
        note(QStringLiteral("fault: request lost"));
        proxy.injectFault(Fault::DropRequest, events);
        break;
    case 1:
        note(QStringLiteral("fault: answer lost"));
        proxy.injectFault(Fault::DropResponse, events);
        break;
    case 2:
        note(QStringLiteral("fault: answer and existence check lost"));
        proxy.injectFault(Fault::DropResponse, events);
        proxy.injectFault(Fault::DropRequest, existence);
        break;
    case 3:
        note(QStringLiteral("fault: hold the write"));
        proxy.injectFault(Fault::Hold, events);
        break;
    case 4:
        note(QStringLiteral("fault: hold a gating read"));
        proxy.injectFault(Fault::Hold, strongRead);
        break;
    case 6:
        note(QStringLiteral("fault: 502"));
        proxy.injectFault(Fault::BadGateway, events);
        break;
    case 7:
        note(QStringLiteral("fault: 504"));
        proxy.injectFault(Fault::GatewayTimeout, events);
        break;
    case 8:
        note(QStringLiteral("fault: connections closed"));
        proxy.dropConnections();
        break;
    case 9:
        note(QStringLiteral("fault: relay CLOSEs the live subscription"));
        proxy.closeSubscriptions("40100", QStringLiteral("error: query timed out"));
        break;
    case 10:
        note(QStringLiteral("fault: relay frozen"));
        proxy.setFrozen(true);
        m_frozen = true;
        break;
    case 5:
        note(QStringLiteral("fault: relay restart"));
        if (!m_relay.restart())
            m_result.problems << QStringLiteral("relay did not restart");
        break;
    default:
        m_replicaPaused = !m_replicaPaused;
        note(m_replicaPaused ? QStringLiteral("fault: replica paused")
                             : QStringLiteral("replica resumed"));
        m_relay.engine->replicaSet()->replica(0).setPaused(m_replicaPaused);
        break;
    }
}

void SessionModelRun::acceptOffers()
{
    using State = canvas::CanvasSession::State;
    if (!m_session || m_session->isBusy())
        return;
    const auto offer = m_session->mergeOffer();
    if (offer && offer->theirs
        && ((m_session->state() == State::Merging && chance(70)) || chance(30))) {
        const QString text = merged(*offer);
        m_sent.insert(text);
        ++m_result.merges;
        note(QStringLiteral("merge"));
        m_session->acceptMerge(offer->theirs, text, chance(80));
        return;
    }
    if (m_session->isEditing() && m_session->liveChange() && chance(20)) {
        const canvas::CanvasSession::MergeOffer live {m_session->editBase(), m_session->baseText(),
                                                      m_session->workingText(),
                                                      m_session->liveChange()};
        const QString text = merged(live);
        m_sent.insert(text);
        ++m_result.merges;
        note(QStringLiteral("merge live change"));
        m_session->acceptMerge(live.theirs, text, false);
    }
}

void SessionModelRun::settleEverything()
{
    using State = canvas::CanvasSession::State;
    m_relay.proxy.disarm();
    m_relay.proxy.release();
    thaw();
    if (m_replicaPaused)
        m_relay.engine->replicaSet()->replica(0).setPaused(false);
    for (int round = 0; round < 6 && m_session; ++round) {
        if (!waitUntil([this] { return !m_session->isBusy(); }, 20000)) {
            m_result.problems << QStringLiteral("a save or restore never settled");
            return;
        }
        if (m_session->state() == State::OutcomeUnknown) {
            ++m_result.retries;
            note(QStringLiteral("final retry"));
            m_session->retry();
            continue;
        }
        if (m_session->state() == State::Merging) {
            const auto offer = m_session->mergeOffer();
            const QString text = merged(*offer);
            m_sent.insert(text);
            note(QStringLiteral("final merge"));
            m_session->acceptMerge(offer->theirs, text, true);
            continue;
        }
        break;
    }
    if (m_session)
        m_session->flushDraft();
}

std::vector<canvas::CanvasRevision> SessionModelRun::revisionsOf(const QString &channel)
{
    // Everything the writer holds for the channel (a strong read, by the other client).
    nostr::Filter filter;
    filter.kinds = std::vector<int> {canvas::kCanvasKind};
    filter.tags['h'] = {channel.toStdString()};
    filter.limit = 1000;
    filter.consistency = nostr::Filter::Consistency::Strong;
    const auto response = finish(m_other->connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("model_audit"))));
    std::vector<canvas::CanvasRevision> revisions;
    if (!response || !*response) {
        m_result.problems << QStringLiteral("audit read failed");
        return revisions;
    }
    for (const nostr::Event &event : (*response)->events) {
        if (auto revision = canvas::CanvasRevision::fromEvent(event))
            revisions.push_back(*revision);
    }
    return revisions;
}

void SessionModelRun::checkOracle()
{
    QSet<QString> present;
    if (m_session && m_session->isEditing())
        present += wordsOf(m_session->workingText());
    const QString user = QString::fromStdString(m_user->key->publicKeyHex());
    for (const Channel &channel : m_channels) {
        const auto revisions = revisionsOf(channel.id);
        for (const canvas::CanvasRevision &revision : revisions) {
            present += wordsOf(revision.content);
            if (revision.author != user)
                continue;
            if (!m_sent.contains(revision.content)) {
                ++m_result.unsentRevisions;
                m_result.problems << QStringLiteral("revision %1 has a text never sent")
                                         .arg(revision.eventId.left(12));
            }
            for (const canvas::CanvasRevision &parent : revisions) {
                if (revision.expectedRevision && parent.hasId(*revision.expectedRevision)
                    && parent.content == revision.content) {
                    ++m_result.duplicateRevisions;
                    m_result.problems << QStringLiteral("revision %1 repeats its parent")
                                             .arg(revision.eventId.left(12));
                }
            }
        }
        for (const canvas::Draft &draft :
             m_drafts->draftsForChannel(kRelayKey, kCommunity, channel.id))
            present += wordsOf(draft.content);
    }
    const QSet<QString> lost = m_mustSurvive - present;
    m_result.lost += int(lost.size()); // after any words a crash lost beyond its 2 s
    if (!lost.isEmpty())
        m_result.problems << QStringLiteral("lost words: %1")
                                 .arg(QStringList(lost.begin(), lost.end()).join(QLatin1Char(' ')));
    for (const client::RequestLogEntry &entry : m_user->connection->requestLog()->entries()) {
        if (entry.method == QLatin1String("POST /events")) {
            m_result.refused409 += entry.httpStatus == 409 ? 1 : 0;
            m_result.gateway += entry.httpStatus == 502 || entry.httpStatus == 504 ? 1 : 0;
        }
        if (kGatingCallers.contains(entry.caller) && !entry.strong) {
            ++m_result.routedGatingReads;
            m_result.problems << QStringLiteral("routed gating read: ") + entry.caller;
        }
    }
}

} // namespace buzz::test
