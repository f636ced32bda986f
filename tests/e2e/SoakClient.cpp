#include "SoakClient.h"

#include "canvas/CanvasRevision.h"
#include "net/client/HttpBridgeClient.h"
#include "net/client/Signer.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>

#include <qcoro/qcorotimer.h>

#include <algorithm>
#include <chrono>

namespace buzz::soak {

using canvas::CanvasRevision;
using canvas::ReadIntent;
using canvas::SaveOutcome;

SoakClient::SoakClient(int index, const QUrl &relayUrl, const QStringList &channels,
                       qint64 clockSkewSecs, SoakLedger &ledger, std::uint32_t seed,
                       QObject *parent)
    : QObject(parent)
    , m_index(index)
    , m_channels(channels)
    , m_skew(clockSkewSecs)
    , m_ledger(ledger)
    , m_random(seed)
    , m_connection(std::make_unique<client::RelayConnection>(relayUrl))
    , m_key(std::make_shared<const nostr::SecretKey>(nostr::SecretKey::generate()))
{
    m_connection->signer()->setKey(m_key);
    m_service = std::make_unique<canvas::CanvasService>(m_connection.get());
    const qint64 skew = m_skew;
    m_service->setClock([skew] { return QDateTime::currentSecsSinceEpoch() + skew; });
}

SoakClient::~SoakClient() = default;

QCoro::Task<> SoakClient::run()
{
    while (!m_stopping) {
        co_await editOnce();
        const auto pause =
            std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 40)(m_random));
        co_await QCoro::sleepFor(pause);
    }
    m_finished = true;
    emit finished();
}

QCoro::Task<> SoakClient::editOnce()
{
    const int count = int(m_channels.size());
    const bool newest = std::uniform_int_distribution<int>(0, 1)(m_random) == 1;
    const int pick = newest
        ? std::max(0, count - 1 - std::uniform_int_distribution<int>(0, 1)(m_random))
        : std::uniform_int_distribution<int>(0, count - 1)(m_random);
    const QString channel = m_channels.at(pick);
    const int dice = std::uniform_int_distribution<int>(0, 99)(m_random);
    if (dice < 4) {
        co_await writeOlderThanHead(channel);
        co_return;
    }
    // Display reads may come from a lagging replica: a stale base is exactly what CAS must catch.
    const ReadIntent intent = dice % 2 ? ReadIntent::Display : ReadIntent::Strong;
    auto head = co_await m_service->head(channel, intent);
    if (!head)
        co_return;
    const std::optional<CanvasRevision> base = *head;
    const QString text = (base ? base->content : QString())
        + QStringLiteral("client %1 edit %2\n").arg(m_index).arg(++m_edits);
    // Editing takes a moment; others save meanwhile.
    co_await QCoro::sleepFor(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 30)(m_random)));
    SaveOutcome outcome = co_await m_service->save(channel, base, text);
    if (outcome.kind == SaveOutcome::Kind::OutcomeUnknown)
        outcome = co_await m_service->resubmit(outcome);
    if (outcome.saved && (outcome.isSaved() || outcome.kind == SaveOutcome::Kind::Superseded))
        m_ledger.accept(*outcome.saved);
    SaveRecord record {m_index, channel, outcome,
                       base ? std::optional<QString>(base->eventId.toLower()) : std::nullopt};
    m_ledger.saves.push_back(std::move(record));
    if (outcome.isSaved() && dice >= 94)
        co_await deleteOwn(*outcome.saved);
}

// NIP-09 soft delete of our own revision: the previous revision becomes current again.
QCoro::Task<> SoakClient::deleteOwn(CanvasRevision revision)
{
    const nostr::Event event = m_key->signedEvent(
        nostr::kinds::kDeletion, QDateTime::currentSecsSinceEpoch() + m_skew,
        {{"e", revision.eventId.toStdString()}, {"h", revision.channel.toStdString()}});
    m_ledger.deleteRequested.insert(revision.eventId.toLower());
    auto reply = co_await m_connection->bridge()->publish(
        event, client::options(QStringLiteral("soak_delete")));
    if (reply && reply->accepted)
        m_ledger.deleted.insert(revision.eventId.toLower());
    else
        ++m_ledger.deletesRejected;
}

// An out-of-order commit: a correctly based CAS write whose created_at is older than the head's.
// The relay must refuse it (it would not become the head); if it accepts, the checker holds it to
// the same rules as every other accepted revision.
QCoro::Task<> SoakClient::writeOlderThanHead(QString channel)
{
    auto head = co_await m_service->head(channel, ReadIntent::Strong);
    if (!head || !*head)
        co_return;
    const CanvasRevision current = **head;
    const QString text = current.content + QStringLiteral("client %1 backdated\n").arg(m_index);
    const nostr::Event event =
        m_key->signedEvent(canvas::kCanvasKind,
                           current.createdAt - std::uniform_int_distribution<int>(1, 900)(m_random),
                           {{"h", channel.toStdString()},
                            {"expected-revision", current.eventId.toLower().toStdString()}},
                           text.toStdString());
    ++m_ledger.rawOlderWrites;
    auto reply = co_await m_connection->bridge()->publish(
        event, client::options(QStringLiteral("soak_backdated")));
    if (reply && reply->accepted) {
        ++m_ledger.rawOlderAccepted;
        if (auto revision = CanvasRevision::fromEvent(event))
            m_ledger.accept(*revision);
    } else {
        ++m_ledger.rawOlderRejected;
    }
}

QCoro::Task<> SoakClient::pageChannel(QString channel)
{
    PagingRecord paging;
    paging.channel = channel;
    paging.committedBefore = m_ledger.acceptedIn(channel);
    paging.startMs = QDateTime::currentMSecsSinceEpoch();
    std::optional<canvas::HistoryCursor> cursor;
    bool complete = false;
    while (true) {
        auto page = co_await m_service->history(channel, cursor, 7);
        if (!page)
            break; // a failed page proves nothing either way; not recorded
        if (++paging.pages == 1 && !page->revisions.empty()) {
            paging.firstTop = std::make_pair(page->revisions.front().createdAt,
                                             page->revisions.front().eventId.toLower());
            paging.firstBottom = std::make_pair(page->revisions.back().createdAt,
                                                page->revisions.back().eventId.toLower());
        }
        for (const auto &revision : page->revisions)
            paging.paged.insert(revision.eventId.toLower());
        if (!page->nextCursor) {
            complete = true;
            break;
        }
        cursor = page->nextCursor;
    }
    paging.endMs = QDateTime::currentMSecsSinceEpoch();
    if (complete)
        m_ledger.pagings.push_back(std::move(paging));
}

} // namespace buzz::soak
