#include "AuthChecks.h"

#include "net/client/RelaySocket.h"
#include "net/nostr/Kinds.h"

#include <QElapsedTimer>

#include <qcoro/qcorotimer.h>

namespace buzz::cli {

using client::RelaySocket;

namespace {

const QString kReplay = QStringLiteral("NIP-98: replay detected");
const QString kVerificationFailed =
    QStringLiteral("NIP-98: NIP-98 HTTP Auth verification failed: ");

QString stateName(RelaySocket::State state)
{
    switch (state) {
    case RelaySocket::State::Idle:
        return QStringLiteral("idle");
    case RelaySocket::State::Connecting:
        return QStringLiteral("connecting");
    case RelaySocket::State::Connected:
        return QStringLiteral("connected");
    case RelaySocket::State::Stalled:
        return QStringLiteral("stalled");
    case RelaySocket::State::Reconnecting:
        return QStringLiteral("reconnecting");
    case RelaySocket::State::AuthRejected:
        return QStringLiteral("auth rejected");
    }
    return QStringLiteral("unknown");
}

// 401 whose error starts with `prefix`.
bool refused401(const ProbeAnswer &answer, const QString &prefix)
{
    return answer.status == 401 && answer.errorText().startsWith(prefix);
}

QByteArray canvasQueryBody(const QString &channel)
{
    nlohmann::json filter = {{"kinds", {nostr::kinds::kCanvas}}, {"limit", 1}};
    if (!channel.isEmpty())
        filter["#h"] = {channel.toStdString()};
    return QByteArray::fromStdString(nlohmann::json::array({filter}).dump());
}

} // namespace

QCoro::Task<void> AuthChecks::run(RelayCheckContext &context)
{
    co_await nip11(context);
    co_await nip42(context);
    co_await nip98(context);
}

QCoro::Task<void> AuthChecks::nip11(RelayCheckContext &context)
{
    const ProbeAnswer answer = co_await context.probe.get(
        QStringLiteral("/"), QByteArrayLiteral("application/nostr+json"));
    const nlohmann::json document = answer.json();
    const auto nips = document.is_object() ? document.find("supported_nips") : document.end();
    bool listsAuth = false;
    QStringList listed;
    if (nips != document.end() && nips->is_array()) {
        for (const auto &nip : *nips) {
            if (!nip.is_number_integer())
                continue;
            listed << QString::number(nip.get<int>());
            listsAuth = listsAuth || nip.get<int>() == 42;
        }
    }
    context.report.check(answer.status == 200 && listsAuth, QStringLiteral("nip11.document"),
                         QStringLiteral("GET / with Accept: application/nostr+json answers the "
                                        "NIP-11 document; supported_nips lists 42"),
                         answer.describe(),
                         listed.isEmpty() ? QString()
                                          : QStringLiteral("supported_nips ") + listed.join(u','));
}

QCoro::Task<void> AuthChecks::nip42(RelayCheckContext &context)
{
    RelaySocket *socket = context.connection.socket();
    QElapsedTimer elapsed;
    elapsed.start();
    socket->open();
    const auto settled = [socket] {
        return socket->state() == RelaySocket::State::Connected
            || socket->state() == RelaySocket::State::AuthRejected;
    };
    while (!settled() && elapsed.elapsed() < context.timeout.count())
        co_await QCoro::sleepFor(std::chrono::milliseconds(20));
    const bool connected = socket->state() == RelaySocket::State::Connected
        && socket->authenticatedAs() == QString::fromStdString(context.probe.key().publicKeyHex());
    context.report.check(
        connected, QStringLiteral("nip42.sign_in"),
        QStringLiteral("the WebSocket sends [\"AUTH\", challenge] and accepts a signed kind 22242 "
                       "answer with OK true"),
        QStringLiteral("%1 after %2 ms%3")
            .arg(stateName(socket->state()))
            .arg(elapsed.elapsed())
            .arg(socket->lastError().isEmpty() ? QString()
                                               : QStringLiteral(": ") + socket->lastError()),
        connected ? QStringLiteral("signed in after %1 ms").arg(elapsed.elapsed()) : QString());
}

QCoro::Task<void> AuthChecks::nip98(RelayCheckContext &context)
{
    RelayProbe &probe = context.probe;
    const QByteArray body = canvasQueryBody(context.channel);
    const QString path = QStringLiteral("/query");
    const QString url = probe.urlFor(path);

    const QByteArray header = QByteArray::fromStdString(
        probe.authorization(url, QStringLiteral("POST"), body, RelayProbe::now()));
    const ProbeAnswer accepted = co_await probe.post(path, body, header);
    context.report.check(accepted.status == 200, QStringLiteral("nip98.accepted"),
                         QStringLiteral("POST /query with a fresh NIP-98 header is answered 200"),
                         accepted.describe());

    const ProbeAnswer replay = co_await probe.post(path, body, header);
    context.report.check(
        replay.status == 401 && replay.errorText() == kReplay, QStringLiteral("nip98.replay"),
        QStringLiteral("the same header again is 401 ") + kReplay, replay.describe());

    const QByteArray wrongUrl = QByteArray::fromStdString(probe.authorization(
        probe.urlFor(QStringLiteral("/count")), QStringLiteral("POST"), body, RelayProbe::now()));
    const ProbeAnswer url401 = co_await probe.post(path, body, wrongUrl);
    context.report.check(refused401(url401, kVerificationFailed + QStringLiteral("URL mismatch")),
                         QStringLiteral("nip98.wrong_url"),
                         QStringLiteral("a header whose u names /count is 401 ")
                             + kVerificationFailed + QStringLiteral("URL mismatch: …"),
                         url401.describe());

    const QByteArray wrongMethod = QByteArray::fromStdString(
        probe.authorization(url, QStringLiteral("GET"), body, RelayProbe::now()));
    const ProbeAnswer method401 = co_await probe.post(path, body, wrongMethod);
    context.report.check(
        refused401(method401, kVerificationFailed + QStringLiteral("method mismatch")),
        QStringLiteral("nip98.wrong_method"),
        QStringLiteral("a header whose method is GET is 401 ") + kVerificationFailed
            + QStringLiteral("method mismatch: …"),
        method401.describe());

    // Two minutes back: outside the ±60 s window on any relay whose clock is within a minute.
    const QByteArray skewed = QByteArray::fromStdString(
        probe.authorization(url, QStringLiteral("POST"), body, RelayProbe::now() - 120));
    const ProbeAnswer skew401 = co_await probe.post(path, body, skewed);
    context.report.check(
        refused401(skew401,
                   kVerificationFailed + QStringLiteral("event timestamp outside ±60s window")),
        QStringLiteral("nip98.skew"),
        QStringLiteral("a header signed 120 s ago is 401 ") + kVerificationFailed
            + QStringLiteral("event timestamp outside ±60s window …"),
        skew401.describe());
}

} // namespace buzz::cli
