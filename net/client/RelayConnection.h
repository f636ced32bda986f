#pragma once

#include "net/nostr/Keys.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace buzz::client {

class HttpBridgeClient;
class RelaySocket;
class RequestLog;
class Signer;

// Everything needed to talk to one relay, built once by the desktop app and the CLI:
// the relay URL, the signer, the HTTP bridge, the WebSocket and the request log. Owns its
// children; the services in canvas/ hold a pointer to it.
//
// The WebSocket's state (socket()->state()) is the connection state the app shows; an HTTP
// request that goes unanswered makes the socket probe the relay at once (RelaySocket::probe), so
// a frozen relay reads as Stalled while saves fail, not as connected.
class RelayConnection : public QObject
{
    Q_OBJECT
public:
    // `relayUrl` as the user typed it: ws://, wss://, http:// or https:// (a bare host:port is
    // taken as http://). The WebSocket is created but not opened; call socket()->open() for live
    // updates and connection state (the CLI never does). `signer` (not owned) holds the key, the
    // one place it lives (the app passes Identity's); nullptr: the connection makes its own.
    explicit RelayConnection(const QUrl &relayUrl, Signer *signer = nullptr,
                             QObject *parent = nullptr);
    ~RelayConnection() override;

    // Parses user input ("localhost:3000", "ws://…", "https://…"); invalid input gives an empty
    // QUrl.
    static QUrl parseRelayUrl(const QString &text);

    // Signs NIP-98 headers, NIP-42 AUTH and events: read the key at the moment of signing.
    Signer *signer() const { return m_signer; }
    std::shared_ptr<const nostr::SecretKey> secretKey() const;
    QString publicKeyHex() const; // empty without a key

    QUrl relayUrl() const { return m_relayUrl; }
    QUrl httpBase() const;
    QUrl wsUrl() const;
    // The community host the relay derives the tenant from (normalised Host: loopback folds to
    // 127.0.0.1, default ports dropped). Part of the DraftStore key.
    QString communityHost() const;

    HttpBridgeClient *bridge() const { return m_bridge; }
    RelaySocket *socket() const { return m_socket; }
    RequestLog *requestLog() const { return m_log; }

private:
    QUrl m_relayUrl;
    Signer *m_signer;
    RequestLog *m_log;
    HttpBridgeClient *m_bridge;
    RelaySocket *m_socket;
};

} // namespace buzz::client
