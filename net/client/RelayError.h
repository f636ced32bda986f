#pragma once

#include "net/nostr/Expected.h"

#include <QMetaType>
#include <QString>

namespace buzz::client {

// Why a relay request failed, classified the way the real desktop and CLI do (docs/buzz-protocol.md
// §Desktop wording, §CLI contract). `message` is the relay's own text when it sent one
// ("conflict: canvas changed since it was loaded", "NIP-98: replay detected"); `detail` is the
// full desktop wording ("relay unreachable: request timed out", "relay returned 409: conflict: …").
struct RelayError
{
    enum class Kind {
        Network, // could not connect / connection lost / DNS / HTML (VPN) page / non-JSON 2xx
        Timeout, // per-request timeout elapsed (outcome of a write is unknown)
        Auth, // 401 / 403, NIP-42 rejection
        BadRequest, // 400 / 413: the relay rejected what we sent ("invalid: …", "restricted: …")
        Conflict, // 409 / "conflict:" — canvas compare-and-swap failed
        Retryable, // 503 (incl. "query timed out", which must NOT be retried automatically), 429,
                   // 408, and a gateway's 502 / 504 (see outcomeUnknown())
        NotFound, // 404 (e.g. "relay: no community is configured for this host"), missing revision
        Internal, // 5xx, malformed relay answers, local failures (signing, missing identity)
    };

    Kind kind = Kind::Internal;
    int httpStatus = 0; // 0 when no HTTP status was received
    QString message; // the relay's message (or the local reason) without any prefix
    QString detail; // desktop wording, safe to show (never a raw URL or a non-JSON body)

    static RelayError make(Kind kind, QString message, QString detail = {}, int httpStatus = 0);

    // True for every failure where the relay may have received the request without its answer
    // reaching us: a write that failed this way has an unknown outcome and must be reconciled,
    // never reported as failed. Besides a lost connection or an elapsed timeout this covers a
    // gateway's 502 / 504: the proxy in front of the relay says the relay's answer never came
    // back, not that the relay refused (it may well have committed the write).
    bool outcomeUnknown() const
    {
        return kind == Kind::Network || kind == Kind::Timeout || httpStatus == 502
            || httpStatus == 504;
    }
    // The CAS family: kind Conflict, or any message containing "conflict:" (matched by substring
    // because relays and proxies may wrap it).
    bool isConflict() const;
    bool isUnreachable() const { return kind == Kind::Network || kind == Kind::Timeout; }

    // UI strings (docs/buzz-protocol.md §Desktop wording): "Can't reach the relay." / "Can't
    // reach the relay — check your VPN or network connection." for unreachable errors, the detail
    // otherwise.
    QString shortText() const;
    QString longText() const;

    // CLI contract (docs/buzz-protocol.md §CLI contract): category for {"error":category} and
    // the exit code (2 relay/network, 3 auth, 5 conflict, 1 not found / usage, 4 other).
    QString cliCategory() const;
    int cliExitCode() const;

    QString kindName() const; // "network", "timeout", "auth", … (logs, JSON)
};

// A value or a RelayError. Nothing in the client layer throws.
template<class T>
using Result = buzz::Expected<T, RelayError>;

inline buzz::Unexpected<RelayError> fail(RelayError error)
{
    return buzz::Unexpected<RelayError>(std::move(error));
}

} // namespace buzz::client

Q_DECLARE_METATYPE(buzz::client::RelayError)
