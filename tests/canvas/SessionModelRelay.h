#pragma once

// The relay of test_canvas_session_model.

#include "RecordingProxy.h"

#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/server/RelayServer.h"

#include <QString>

#include <memory>

namespace buzz::test {

// The in-process relay (writer + one replica with a routing budget, so display reads can be
// served stale) behind a RecordingProxy. restart() replaces the server (every connection drops,
// the data stays), as a relay process restart looks to its clients.
struct SessionModelRelay
{
    RecordingProxy proxy;
    std::unique_ptr<relay::RelayEngine> engine;
    std::unique_ptr<relay::RelayServer> server;
    nostr::SecretKey owner = nostr::SecretKey::generate();

    bool start();
    bool restart();
    QString createChannel(); // an open channel owned by `owner`
    ~SessionModelRelay();

private:
    bool startServer();
};

} // namespace buzz::test
