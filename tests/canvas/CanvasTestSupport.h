#pragma once

// Shared setup for canvas tests against the real in-process relay: a RelayTestFixture behind a
// RecordingProxy (so tests see exactly what the relay received) and clients with their own keys.

#include "RecordingProxy.h"
#include "RelayTestFixture.h"
#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"

#include <QCoroTask>
#include <QEventLoop>

#include <memory>
#include <optional>

namespace buzz::test {

// A save outcome's kind as text, for failure messages.
inline const char *kindName(canvas::SaveOutcome::Kind kind)
{
    static QByteArray name;
    canvas::SaveOutcome outcome;
    outcome.kind = kind;
    name = outcome.kindName().toLatin1();
    return name.constData();
}

// Compares a SaveOutcome's kind and, on failure, says what it was and the relay's detail.
#define COMPARE_KIND(outcome, expected)                                                            \
    QVERIFY2((outcome).kind == (expected),                                                         \
             qPrintable(QStringLiteral("got %1 (%2), expected %3")                                 \
                            .arg(QLatin1String(buzz::test::kindName((outcome).kind)),              \
                                 (outcome).error ? (outcome).error->detail : QString(),            \
                                 QLatin1String(buzz::test::kindName(expected)))))

// Runs a coroutine to completion in a nested event loop. (QCoro::waitFor needs a default-
// constructible result; Result<T> is not.)
template<class T>
T await(QCoro::Task<T> task)
{
    std::optional<T> result;
    QEventLoop loop;
    auto runner = [&]() -> QCoro::Task<> {
        result.emplace(co_await std::move(task));
        loop.quit();
    };
    auto running = runner();
    if (!result)
        loop.exec();
    return std::move(*result);
}

// A relay behind a recording proxy; the relay's URL is the proxy's, so NIP-42/NIP-98 match.
struct ProxiedRelay
{
    RecordingProxy proxy;
    std::unique_ptr<relay::test::RelayTestFixture> relay;

    // `options` may set anything but the clock, the start and the URL (e.g. a membership gate).
    bool start(relay::test::RelayTestFixture::Options options = {})
    {
        if (!proxy.listen())
            return false;
        options.systemClock = true; // the client signs NIP-98 and created_at with the wall clock
        options.autoStart = false;
        options.relayUrl = QStringLiteral("ws://127.0.0.1:%1").arg(proxy.port()).toStdString();
        relay = std::make_unique<relay::test::RelayTestFixture>(options);
        if (!relay->start())
            return false;
        proxy.setUpstreamPort(relay->port());
        return true;
    }
};

// One user of the canvas: its key, connection (through the proxy), CanvasService and CanvasWatch.
struct CanvasClient
{
    relay::test::TestIdentity identity;
    std::unique_ptr<client::RelayConnection> connection;
    std::unique_ptr<canvas::CanvasService> service;
    std::unique_ptr<canvas::CanvasWatch> watch;

    explicit CanvasClient(const QUrl &url)
    {
        connection = std::make_unique<client::RelayConnection>(url);
        connection->signer()->setKey(
            std::make_shared<const nostr::SecretKey>(identity.key.clone()));
        service = std::make_unique<canvas::CanvasService>(connection.get());
        watch = std::make_unique<canvas::CanvasWatch>(connection.get(), service.get());
    }
    client::RequestLog &log() { return *connection->requestLog(); }
};

} // namespace buzz::test
