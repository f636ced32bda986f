#pragma once

// One relay process's worth of relay, set up one way for every user: buzz-mock-relay's main, the
// desktop app's embedded relay and the test fixtures. It owns the engine (store, replicas,
// routing, ingest, query) and the server in front of it, and keeps the order that matters: the
// data directory exists before the store opens, the server stops (waiting for engine calls in
// flight) before the engine goes, and demo data is seeded only once the communities are known.
// Whatever comes from flags or the environment is the caller's business (app/): this class only
// takes values.

#include "relay/RelayEngine.h"
#include "relay/server/RelayServer.h"

#include <QHostAddress>
#include <QString>

#include <memory>

namespace buzz::relay {

class RelayHost
{
public:
    struct Config
    {
        // dataDir is created if missing and made absolute; an empty relaySecretKeyHex means a key
        // generated for this run.
        RelayEngine::Options engine;
        // Without a clock the server uses the engine's relay clock, so POST /admin/clock shifts
        // the NIP-42 / NIP-98 windows together with ingest.
        RelayServer::Options server;
        bool seedDemo = false; // demo channels in every community the server maps, once listening
    };

    // Opens the store and builds the server (not listening yet). On failure errorString() says
    // why and engine()/server() must not be used.
    explicit RelayHost(Config config);
    ~RelayHost();
    RelayHost(const RelayHost &) = delete;
    RelayHost &operator=(const RelayHost &) = delete;

    bool isOpen() const { return m_engine && m_server; }
    // Listens on "HOST:PORT" (port 0 = any free port) or on address:port. False with
    // errorString() on failure.
    bool start(const QString &hostAndPort);
    bool start(const QHostAddress &address = QHostAddress(QHostAddress::LocalHost),
               quint16 port = 0);
    // Closes every connection and waits for the engine calls they started; idempotent.
    void stop();

    RelayEngine &engine() const { return *m_engine; }
    RelayServer &server() const { return *m_server; }
    QString errorString() const { return m_error; }
    bool isListening() const { return m_server && m_server->isListening(); }
    quint16 port() const { return m_server ? m_server->port() : 0; }
    QString url() const { return m_server ? m_server->url() : QString(); } // ws://…
    QString httpUrl() const { return m_server ? m_server->httpUrl() : QString(); }

private:
    bool started(bool listening);

    bool m_seedDemo = false;
    std::unique_ptr<RelayEngine> m_engine;
    std::unique_ptr<RelayServer> m_server;
    QString m_error;
};

} // namespace buzz::relay
