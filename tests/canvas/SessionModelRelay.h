#pragma once

// The relay of test_canvas_session_model.

#include "RecordingProxy.h"

#include "canvas/CanvasRevision.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/server/RelayServer.h"

#include <QString>

#include <memory>
#include <optional>

namespace buzz::test {

// The in-process relay (writer + one replica with a routing budget, so display reads can be
// served stale) behind a RecordingProxy. restart() replaces the server (every connection drops,
// the data stays), as a relay process restart looks to its clients.
struct SessionModelRelay
{
    // The relay's staleness budget: how far behind the writer a display read may be. Also the
    // bound the oracle holds the open canvas to ("stale beyond budget").
    static constexpr int kReadBudgetMs = 5000;

    RecordingProxy proxy;
    std::unique_ptr<relay::RelayEngine> engine;
    std::unique_ptr<relay::RelayServer> server;
    nostr::SecretKey owner = nostr::SecretKey::generate();

    bool start();
    bool restart();
    QString createChannel(); // an open channel owned by `owner`
    // The newest revision of `channel` the writer committed, read in-process (no request the
    // faults could touch): what a canvas must show as current within the budget.
    std::optional<canvas::CanvasRevision> writerHead(const QString &channel);
    ~SessionModelRelay();

private:
    bool startServer();
};

} // namespace buzz::test
