#pragma once

#include "net/nostr/Keys.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace buzz::client {

class HttpBridge;
class RelaySocket;
class RequestLog;

// Everything needed to talk to one relay, built once by the desktop app and the CLI:
// the relay URL, the signing identity, the HTTP bridge, the WebSocket and the request log.
// Owns its children; the services in canvas/ hold a pointer to it.
class RelayConnection : public QObject
{
    Q_OBJECT
public:
    // `relayUrl` as the user typed it: ws://, wss://, http:// or https:// (a bare host:port is
    // taken as http://). The WebSocket is created but not opened; call socket()->open() for live
    // updates (the CLI never does).
    explicit RelayConnection(const QUrl &relayUrl, QObject *parent = nullptr);
    ~RelayConnection() override;

    // Parses user input ("localhost:3000", "ws://…", "https://…"); invalid input gives an empty
    // QUrl.
    static QUrl parseRelayUrl(const QString &text);

    // The identity used to sign NIP-98 headers, NIP-42 AUTH and events. Shared by bridge and
    // socket.
    void setSecretKey(std::shared_ptr<const nostr::SecretKey> key);
    std::shared_ptr<const nostr::SecretKey> secretKey() const { return m_key; }
    QString publicKeyHex() const; // empty without a key

    QUrl relayUrl() const { return m_relayUrl; }
    QUrl httpBase() const;
    QUrl wsUrl() const;
    // The community host the relay derives the tenant from (normalised Host: loopback folds to
    // 127.0.0.1, default ports dropped). Part of the DraftStore key.
    QString communityHost() const;

    HttpBridge *bridge() const { return m_bridge; }
    RelaySocket *socket() const { return m_socket; }
    RequestLog *requestLog() const { return m_log; }

signals:
    void secretKeyChanged();

private:
    QUrl m_relayUrl;
    std::shared_ptr<const nostr::SecretKey> m_key;
    RequestLog *m_log;
    HttpBridge *m_bridge;
    RelaySocket *m_socket;
};

} // namespace buzz::client
