#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QSet>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <vector>

namespace buzz::client {

// One long-lived subscription as RelaySocket keeps it across connections: its filters, what it
// has seen (so a REQ sent again asks only for what may have been missed), and where it stands.
// Plain bookkeeping; RelaySocket owns the state transitions and the signals.
struct RelaySubscription
{
    Q_GADGET
public:
    enum class State {
        Pending, // REQ sent (or waiting for a connection), stored events not all delivered yet
        Live, // EOSE received: stored events delivered, new ones follow
        Resubscribing, // CLOSEd by the relay for a transient reason; REQ again after a backoff
        Refused, // CLOSEd for a permanent reason ("restricted: …"); sent again on a new connection
    };
    Q_ENUM(State)

    std::vector<nostr::Filter> filters;
    QString caller;
    State state = State::Pending;
    bool sent = false; // a REQ went out on some connection
    quint64 sentOnConnection = 0; // the connection serial of the last REQ
    bool gap = false; // not live since a REQ went out: events may have been missed
    QString closedReason;
    std::chrono::milliseconds nextBackoff {0};
    qint64 resubscribeAtMs = 0; // the socket's clock time of the next REQ while Resubscribing
    QDateTime sentAt;
    qint64 sentAtMs = 0;
    quint64 logSequence = 0; // the request log's pending row for the REQ in flight (0: none)

    // The REQ frame; sent again, each filter's `since` moves up to the newest event seen minus
    // a few seconds of overlap (events signed before that may still be missed: see
    // RelaySocket::subscriptionResynced).
    QByteArray reqFrame(const QString &id) const;
    // False for an event already delivered (history and live fan-out overlap, and a REQ sent
    // again re-reads its overlap on purpose); each event is reported once.
    bool acceptEvent(const nostr::Event &event);
    bool isStrong() const;

    // A CLOSED reason the relay would give again to the same REQ on the same connection:
    // "restricted:", "invalid:", "blocked:", "unsupported:". Everything else — "error: query
    // timed out", "error: retryable: …", an unknown prefix — is worth a retry after a backoff.
    static bool isPermanentRefusal(const QString &reason);
    // The request log's status for a CLOSED reason, named like RelayError kinds.
    static QString closedStatus(const QString &reason);
    // How the relay says it served the history, from an EOSE frame: our relay's extension
    // (relay/README.md "Read routing") puts it in a third element {"read_route":"…"}. Empty when
    // the relay sends none (any other relay) or something else there.
    static QString eoseRoute(const nlohmann::json &eose);

private:
    qint64 m_lastSeenCreatedAt = 0; // 0 = nothing seen yet
    QSet<QString> m_recentIds;
};

} // namespace buzz::client
