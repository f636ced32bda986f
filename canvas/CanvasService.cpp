#include "canvas/CanvasService.h"

#include "canvas/AncestryWalk.h"
#include "canvas/CanvasWriteRules.h"
#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/nostr/Hex.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QSet>

Q_LOGGING_CATEGORY(lcCanvas, "buzz.canvas.service")

namespace buzz::canvas {

using client::fail;
using client::RelayError;
using client::Result;

struct CanvasService::Written
{
    QString channel;
    nostr::Event event; // signed candidate; re-sent byte for byte on retry
    std::optional<CanvasRevision> base;
    QString content;
    bool mayHaveLanded = false; // an earlier send of this event may have been committed
};

namespace {

nostr::Filter canvasFilter(const QString &channel, bool strong)
{
    nostr::Filter filter;
    filter.kinds = std::vector<int> {kCanvasKind};
    filter.tags['h'] = {channel.toStdString()};
    if (strong)
        filter.consistency = nostr::Filter::Consistency::Strong;
    return filter;
}

bool sameRevision(const std::optional<QString> &a, const std::optional<QString> &b)
{
    const QString left = a.value_or(QString::fromLatin1(kExpectedNone));
    const QString right = b.value_or(QString::fromLatin1(kExpectedNone));
    return left.compare(right, Qt::CaseInsensitive) == 0;
}

std::optional<QString> idOf(const std::optional<CanvasRevision> &revision)
{
    return revision ? std::optional<QString>(revision->eventId) : std::nullopt;
}

// The first well-formed canvas revision of a response (ids and limit:1 reads), if any.
std::optional<CanvasRevision> firstRevision(const std::vector<nostr::Event> &events)
{
    for (const nostr::Event &event : events) {
        if (auto revision = CanvasRevision::fromEvent(event))
            return revision;
    }
    return std::nullopt;
}

bool isEventId(const QString &id)
{
    return nostr::isLowerHex(id.toLower().toStdString(), 64);
}

RelayError badRevisionIdError()
{
    return RelayError::make(RelayError::Kind::BadRequest,
                            QStringLiteral("revision id must be a 64-character hex event id"));
}

SaveOutcome conflictOutcome(const std::optional<CanvasRevision> &base, const QString &mine,
                            std::optional<CanvasRevision> theirs,
                            std::optional<RelayError> error = {})
{
    SaveOutcome outcome;
    outcome.kind = SaveOutcome::Kind::Conflict;
    outcome.base = base;
    outcome.mine = mine;
    outcome.theirs = std::move(theirs);
    outcome.error = std::move(error);
    return outcome;
}

} // namespace

CanvasService::CanvasService(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_clock([] { return QDateTime::currentSecsSinceEpoch(); })
{
    qRegisterMetaType<buzz::canvas::CanvasRevision>();
    auto *socket = m_connection->socket();
    connect(socket, &client::RelaySocket::stateChanged, this,
            [this](client::RelaySocket::State state) {
                if (state == client::RelaySocket::State::Connected)
                    emit relayConnected();
            });
}

bool CanvasService::isRelayConnected() const
{
    return m_connection->socket()->state() == client::RelaySocket::State::Connected;
}

CanvasService::~CanvasService() = default;

QCoro::Task<Result<std::optional<CanvasRevision>>>
CanvasService::readHead(QString channel, bool strong, QString caller)
{
    nostr::Filter filter = canvasFilter(channel.toLower(), strong);
    filter.limit = 1;
    auto response =
        co_await m_connection->bridge()->query(client::filters(filter), client::options(caller));
    if (!response)
        co_return fail(response.error());
    co_return firstRevision(response->events);
}

QCoro::Task<Result<std::optional<CanvasRevision>>> CanvasService::head(QString channel,
                                                                       ReadIntent intent)
{
    const bool strong = intent == ReadIntent::Strong;
    co_return co_await readHead(channel, strong,
                                strong ? QStringLiteral("canvas_head_strong")
                                       : QStringLiteral("canvas_head_display"));
}

QCoro::Task<Result<std::optional<CanvasRevision>>> CanvasService::recheckHead(QString channel)
{
    co_return co_await readHead(channel, true, QStringLiteral("canvas_head_recheck"));
}

QCoro::Task<Result<std::optional<CanvasRevision>>> CanvasService::resyncHead(QString channel)
{
    co_return co_await readHead(channel, true, QStringLiteral("canvas_watch_resync"));
}

QCoro::Task<Result<HistoryPage>>
CanvasService::history(QString channel, std::optional<HistoryCursor> cursor, int pageSize)
{
    if (pageSize < 1 || pageSize > kMaxHistoryPageSize)
        co_return fail(RelayError::make(RelayError::Kind::BadRequest,
                                        QStringLiteral("limit must be between 1 and 1000")));
    nostr::Filter filter = canvasFilter(channel.toLower(), false);
    filter.limit = pageSize;
    if (cursor) {
        if (!isEventId(cursor->eventId))
            co_return fail(
                RelayError::make(RelayError::Kind::BadRequest,
                                 QStringLiteral("before_id must be a 64-character hex event id")));
        filter.until = cursor->createdAt;
        filter.beforeId = cursor->eventId.toLower().toStdString();
    }
    auto response = co_await m_connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("history_page")));
    if (!response)
        co_return fail(response.error());
    HistoryPage page;
    page.revisions.reserve(response->events.size());
    QSet<QString> listed;
    const CanvasRevision *oldest = nullptr;
    for (const nostr::Event &event : response->events) {
        auto revision = CanvasRevision::fromEvent(event);
        // A relay can repeat a row within a page: each revision is listed once.
        if (!revision || listed.contains(revision->eventId))
            continue;
        listed.insert(revision->eventId);
        page.revisions.push_back(std::move(*revision));
    }
    for (const CanvasRevision &revision : page.revisions) {
        if (!oldest || oldest->isNewerThan(revision))
            oldest = &revision;
    }
    // Only a full page proves there may be more; a short page is the end of history. What the
    // relay sent counts, dropped rows included: rows behind the cursor (a repeated page) were
    // dropped by the verifier. The next page starts after the oldest row, not the last one, so
    // a page in the wrong order cannot send the walk back over rows already listed.
    const qsizetype sent = qsizetype(response->events.size()) + response->dropped;
    if (sent >= pageSize) {
        if (oldest)
            page.nextCursor = HistoryCursor {oldest->createdAt, oldest->eventId};
        else if (cursor)
            page.stalled = true;
    }
    if (page.stalled)
        qCWarning(lcCanvas) << "history page after" << cursor->eventId << "brought" << sent
                            << "rows and none older: the relay repeated a page, history ends";
    co_return page;
}

QCoro::Task<Result<std::optional<CanvasRevision>>>
CanvasService::strongById(QString channel, QString eventId, QString caller)
{
    nostr::Filter filter = canvasFilter(channel.toLower(), true);
    filter.ids = std::vector<std::string> {eventId.toLower().toStdString()};
    filter.limit = 1;
    auto response =
        co_await m_connection->bridge()->query(client::filters(filter), client::options(caller));
    if (!response)
        co_return fail(response.error());
    co_return firstRevision(response->events);
}

QCoro::Task<Result<std::optional<CanvasRevision>>> CanvasService::revision(QString channel,
                                                                           QString eventId)
{
    if (!isEventId(eventId))
        co_return fail(badRevisionIdError());
    nostr::Filter filter = canvasFilter(channel.toLower(), false);
    filter.ids = std::vector<std::string> {eventId.toLower().toStdString()};
    filter.limit = 1;
    auto response = co_await m_connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("canvas_revision")));
    if (!response)
        co_return fail(response.error());
    co_return firstRevision(response->events);
}

QCoro::Task<Result<std::optional<CanvasRevision>>> CanvasService::draftBase(QString channel,
                                                                            QString eventId)
{
    if (!isEventId(eventId))
        co_return fail(badRevisionIdError());
    co_return co_await strongById(channel, eventId, QStringLiteral("canvas_draft_base"));
}

QCoro::Task<Result<std::vector<CanvasRevision>>> CanvasService::strongAncestry(QString channel)
{
    nostr::Filter filter = canvasFilter(channel.toLower(), true);
    filter.limit = kAncestryWalkMax;
    auto response = co_await m_connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("canvas_ancestry")));
    if (!response)
        co_return fail(response.error());
    std::vector<CanvasRevision> revisions;
    revisions.reserve(response->events.size());
    for (const nostr::Event &event : response->events) {
        if (auto revision = CanvasRevision::fromEvent(event))
            revisions.push_back(std::move(*revision));
    }
    co_return revisions;
}

Result<nostr::Event> CanvasService::signCandidate(const QString &channel, const QString &content,
                                                  const std::optional<CanvasRevision> &head,
                                                  std::optional<QString> expectedRevision,
                                                  const std::optional<RevisionLabel> &label)
{
    const auto key = m_connection->secretKey();
    if (!key)
        return fail(
            RelayError::make(RelayError::Kind::Auth, QStringLiteral("no identity configured"),
                             QStringLiteral("no identity configured: set a private key first")));
    const qint64 now = m_clock();
    // A poisoned head far in the future would drag every later save with it.
    if (head && head->createdAt > now + kMaxHeadFutureSkewSecs)
        return fail(RelayError::make(RelayError::Kind::Internal,
                                     QStringLiteral("canvas head is timestamped too far in "
                                                    "the future; refusing to extend it")));
    nostr::Tags tags {{"h", channel.toLower().toStdString()}};
    if (expectedRevision)
        tags.push_back({"expected-revision", expectedRevision->toLower().toStdString()});
    if (label)
        tags.push_back(label->tag());
    return key->signedEvent(kCanvasKind, head ? std::max(now, head->createdAt + 1) : now,
                            std::move(tags), content.toStdString());
}

QCoro::Task<SaveOutcome> CanvasService::save(QString channel, std::optional<CanvasRevision> base,
                                             QString content, SaveOptions options)
{
    channel = channel.toLower();
    // Refused before any request: the relay would refuse it at ingest step 2c anyway.
    if (auto tooLarge = CanvasWriteRules::checkContent(content))
        co_return SaveOutcome::failure(*tooLarge);
    auto head = co_await readHead(channel, true, QStringLiteral("canvas_precondition"));
    if (!head)
        co_return SaveOutcome::failure(head.error());
    const std::optional<QString> &stated = options.expectedRevision;
    if (stated && *stated != QLatin1String(kExpectedNone) && !isEventId(*stated))
        co_return SaveOutcome::failure(RelayError::make(
            RelayError::Kind::BadRequest,
            QStringLiteral("expected revision must be a 64-character hex event id or none")));
    // With a stated revision the write is a no-op only where the relay's check would pass.
    if (*head && (*head)->content == content && (!stated || sameRevision(*stated, idOf(*head)))) {
        // Writing it again would only add a duplicate revision.
        SaveOutcome outcome;
        outcome.kind = SaveOutcome::Kind::AlreadyCurrent;
        outcome.saved = *head;
        co_return outcome;
    }
    if (stated) {
        // The relay decides: what the conflict outcome calls "base" is the stated revision.
        if (sameRevision(*stated, idOf(*head)))
            base = *head;
        else if (*stated == QLatin1String(kExpectedNone))
            base.reset();
        else
            base = CanvasRevision::named(channel, *stated);
    } else if (!options.unconditional && !sameRevision(idOf(base), idOf(*head))) {
        co_return conflictOutcome(base, content, *head);
    }

    std::optional<QString> expected;
    if (stated)
        expected = stated->toLower();
    else if (!options.unconditional)
        expected = base ? base->eventId : QString::fromLatin1(kExpectedNone);
    auto event = signCandidate(channel, content, *head, expected, options.label);
    if (!event)
        co_return SaveOutcome::failure(event.error());
    // Named, not a braced temporary: g++ 12 destroys braced temporaries in co_await twice.
    Written written {channel, std::move(event).value(), base, content, false};
    co_return co_await publishAndVerify(std::move(written));
}

QCoro::Task<SaveOutcome> CanvasService::restore(QString channel, QString revisionId,
                                                std::optional<QString> frozenHeadId)
{
    channel = channel.toLower();
    if (!isEventId(revisionId))
        co_return SaveOutcome::failure(badRevisionIdError());
    auto target = co_await strongById(channel, revisionId, QStringLiteral("canvas_restore_target"));
    if (!target)
        co_return SaveOutcome::failure(target.error());
    if (!*target)
        co_return SaveOutcome::failure(
            RelayError::make(RelayError::Kind::NotFound,
                             QStringLiteral("revision %1 not found in channel %2")
                                 .arg(revisionId.toLower(), channel)));
    auto head = co_await readHead(channel, true, QStringLiteral("canvas_precondition"));
    if (!head)
        co_return SaveOutcome::failure(head.error());
    std::optional<CanvasRevision> frozenBase;
    if (frozenHeadId)
        frozenBase = CanvasRevision::named(channel, *frozenHeadId);
    if (*head && ((*head)->hasId((*target)->eventId) || (*head)->content == (*target)->content)) {
        SaveOutcome outcome;
        outcome.kind = SaveOutcome::Kind::AlreadyCurrent;
        outcome.saved = *head;
        co_return outcome;
    }
    if (!sameRevision(frozenHeadId, idOf(*head)))
        co_return conflictOutcome(frozenBase, (*target)->content, *head);
    if (*head && frozenBase)
        frozenBase = *head; // same id: keep the full revision (content) for a later merge
    auto event = signCandidate(channel, (*target)->content, *head,
                               frozenHeadId ? *frozenHeadId : QString::fromLatin1(kExpectedNone),
                               RevisionLabel::restoring(**target));
    if (!event)
        co_return SaveOutcome::failure(event.error());
    Written written {channel, std::move(event).value(), frozenBase, (*target)->content, false};
    co_return co_await publishAndVerify(std::move(written));
}

QCoro::Task<SaveOutcome> CanvasService::resubmit(SaveOutcome unknown)
{
    if (unknown.kind != SaveOutcome::Kind::OutcomeUnknown || !unknown.pending)
        co_return unknown;
    const nostr::Event &event = *unknown.pending;
    const std::string *channel = event.tagValue("h");
    Written written {channel ? QString::fromStdString(*channel) : QString(), event, unknown.base,
                     QString::fromStdString(event.content), true};
    co_return co_await reconcileUnknown(
        std::move(written),
        unknown.error.value_or(
            RelayError::make(RelayError::Kind::Network, QStringLiteral("network error"))),
        true);
}

QCoro::Task<SaveOutcome> CanvasService::publishAndVerify(Written written)
{
    auto response = co_await m_connection->bridge()->publish(
        written.event,
        client::options(written.mayHaveLanded ? QStringLiteral("canvas_publish_retry")
                                              : QStringLiteral("canvas_publish")));
    if (response) {
        if (response->accepted)
            co_return co_await verifyAncestry(std::move(written));
        // A WS-style rejection over HTTP 200: classify by the message like the desktop does.
        RelayError error =
            RelayError::make(RelayError::Kind::BadRequest, response->message,
                             QStringLiteral("relay rejected event: ") + response->message, 200);
        if (error.isConflict()) {
            error.kind = RelayError::Kind::Conflict;
            co_return co_await reconcileAfterConflict(std::move(written), error);
        }
        co_return SaveOutcome::failure(error);
    }
    const RelayError error = response.error();
    if (error.isConflict())
        co_return co_await reconcileAfterConflict(std::move(written), error);
    if (error.outcomeUnknown()) {
        const bool firstAttempt = !written.mayHaveLanded; // a retry that is lost again stops here
        co_return co_await reconcileUnknown(std::move(written), error, firstAttempt);
    }
    co_return SaveOutcome::failure(error);
}

QCoro::Task<SaveOutcome> CanvasService::verifyAncestry(Written written)
{
    const auto ours = CanvasRevision::fromEvent(written.event);
    auto chain = co_await strongAncestry(written.channel);
    SaveOutcome outcome;
    outcome.saved = ours;
    if (!chain) {
        // The write was accepted; only the proof is missing. A notice, never a failure.
        outcome.kind = SaveOutcome::Kind::SavedUnverified;
        outcome.error = chain.error();
        co_return outcome;
    }
    if (canvasWriteSurvived(*chain, QString::fromStdString(written.event.id), kAncestryWalkMax)) {
        outcome.kind = SaveOutcome::Kind::SavedVerified;
        co_return outcome;
    }
    outcome.kind = SaveOutcome::Kind::Superseded;
    if (!chain->empty())
        outcome.head = chain->front();
    co_return outcome;
}

QCoro::Task<SaveOutcome> CanvasService::reconcileAfterConflict(Written written,
                                                               RelayError relayError)
{
    const QString ourId = QString::fromStdString(written.event.id);
    auto chain = co_await strongAncestry(written.channel);
    if (!chain) {
        if (written.mayHaveLanded) {
            SaveOutcome outcome;
            outcome.kind = SaveOutcome::Kind::OutcomeUnknown;
            outcome.pending = written.event;
            outcome.base = written.base;
            outcome.mine = written.content;
            outcome.error = chain.error();
            co_return outcome;
        }
        co_return conflictOutcome(written.base, written.content, std::nullopt, relayError);
    }
    std::optional<CanvasRevision> theirs;
    if (!chain->empty())
        theirs = chain->front();
    // A 409 for a re-sent event can mean our first attempt landed and something built on it.
    if (canvasWriteSurvived(*chain, ourId, kAncestryWalkMax)) {
        SaveOutcome outcome;
        outcome.kind = SaveOutcome::Kind::SavedVerified;
        outcome.saved = CanvasRevision::fromEvent(written.event);
        co_return outcome;
    }
    if (written.mayHaveLanded) {
        // Not an ancestor is not "absent": an untagged write may have taken the head.
        bool landed = false;
        for (const CanvasRevision &revision : *chain)
            landed = landed || revision.hasId(ourId);
        if (!landed) {
            auto existing =
                co_await strongById(written.channel, ourId, QStringLiteral("canvas_existence"));
            if (!existing) {
                SaveOutcome outcome;
                outcome.kind = SaveOutcome::Kind::OutcomeUnknown;
                outcome.pending = written.event;
                outcome.base = written.base;
                outcome.mine = written.content;
                outcome.error = existing.error();
                co_return outcome;
            }
            landed = existing->has_value();
        }
        if (landed) {
            SaveOutcome outcome;
            outcome.kind = SaveOutcome::Kind::Superseded;
            outcome.saved = CanvasRevision::fromEvent(written.event);
            outcome.head = theirs;
            co_return outcome;
        }
    }
    co_return conflictOutcome(written.base, written.content, theirs, relayError);
}

QCoro::Task<SaveOutcome> CanvasService::reconcileUnknown(Written written, RelayError cause,
                                                         bool mayResend)
{
    written.mayHaveLanded = true;
    const QString ourId = QString::fromStdString(written.event.id);
    qCInfo(lcCanvas) << "outcome of" << ourId.left(12) << "unknown (" << cause.detail
                     << "), reconciling";
    auto existing = co_await strongById(written.channel, ourId, QStringLiteral("canvas_existence"));
    if (existing && existing->has_value())
        co_return co_await verifyAncestry(std::move(written));
    if (existing && mayResend) {
        // It did not land: send the very same signed event again (same id: never a second
        // revision).
        co_return co_await publishAndVerify(std::move(written));
    }
    SaveOutcome outcome;
    outcome.kind = SaveOutcome::Kind::OutcomeUnknown;
    outcome.pending = written.event;
    outcome.base = written.base;
    outcome.mine = written.content;
    outcome.error = existing ? cause : existing.error();
    co_return outcome;
}

} // namespace buzz::canvas
