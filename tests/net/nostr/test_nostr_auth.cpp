// NIP-42 and NIP-98 builders and verifiers (one test per failure rule, exact messages) and the
// relay URL normalisation they compare with.
#include "net/nostr/Nip42.h"
#include "net/nostr/Nip98.h"
#include "net/nostr/RelayUrl.h"
#include "net/nostr/Sha256.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QTest>
#include <QUuid>

using namespace buzz::nostr;
using buzz::Expected;

namespace {

constexpr std::int64_t kNow = 1'750'000'000;
const std::string kRelayUrl = "ws://localhost:3000";
const std::string kChallenge = std::string(64, 'f');
const std::string kQueryUrl = "http://127.0.0.1:3000/query";
const std::string kBody = R"([{"kinds":[40100],"#h":["3f1c2b9e-0000-4000-8000-000000000000"]}])";
const std::string kFailed = "NIP-98: NIP-98 HTTP Auth verification failed: ";

const SecretKey &testKey()
{
    static const SecretKey key =
        SecretKey::parse("3d8b49e55990a8102bedd9db4e6091d713ffbfefe3ac79ae4e7182e008b1bbea")
            .value();
    return key;
}

Event signedEvent(int kind, Tags tags, std::int64_t createdAt = kNow)
{
    Event event;
    event.kind = kind;
    event.createdAt = createdAt;
    event.tags = std::move(tags);
    testKey().signEvent(event);
    return event;
}

std::string headerFor(const std::string &text)
{
    return "Nostr " + QByteArray::fromStdString(text).toBase64().toStdString();
}

std::string headerFor(const Event &event)
{
    return headerFor(event.toJson());
}

Tags httpTags(const std::string &url, const std::string &method, std::optional<std::string> body)
{
    Tags tags = {{"u", url}, {"method", method}};
    if (body)
        tags.push_back({"payload", sha256Hex(*body)});
    tags.push_back({"nonce", "4b0c8d3e-1111-4222-8333-444455556666"});
    return tags;
}

std::string verifyError(const std::string &header, const std::string &body = kBody)
{
    const Expected<Event> result =
        nip98::verifyAuthorizationHeader(header, kQueryUrl, "POST", body, kNow);
    return result.hasValue() ? std::string("<valid>") : result.error();
}

} // namespace

class TestNostrAuth : public QObject
{
    Q_OBJECT

private slots:
    void relayUrlNormalisation_data();
    void relayUrlNormalisation();
    void httpAndWsBases();
    void hostNormalisation_data();
    void hostNormalisation();

    void nip42BuiltEventVerifies();
    void nip42WrongKind();
    void nip42BadId();
    void nip42BadSignature();
    void nip42ChallengeMismatch();
    void nip42MissingChallengeTag();
    void nip42MissingRelayTag();
    void nip42WrongUrl();
    void nip42Stale();

    void nip98BuiltHeaderVerifies();
    void nip98MissingHeader();
    void nip98Base64AndJsonErrors();
    void nip98WrongKind();
    void nip98BadSignature();
    void nip98Stale();
    void nip98MissingUrlTag();
    void nip98WrongUrl();
    void nip98MissingMethodTag();
    void nip98WrongMethod();
    void nip98PayloadMismatch();
};

void TestNostrAuth::relayUrlNormalisation_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("already normal") << "ws://127.0.0.1:3000"
                                    << "ws://127.0.0.1:3000";
    QTest::newRow("localhost") << "ws://localhost:3000"
                               << "ws://127.0.0.1:3000";
    QTest::newRow("LOCALHOST upper") << "WS://LocalHost:3000/"
                                     << "ws://127.0.0.1:3000";
    QTest::newRow("ipv6 loopback") << "ws://[::1]:3000"
                                   << "ws://127.0.0.1:3000";
    QTest::newRow("127/8") << "http://127.1.2.3:8080/query"
                           << "http://127.0.0.1:8080/query";
    QTest::newRow("not loopback 128") << "http://128.0.0.1/x"
                                      << "http://128.0.0.1/x";
    QTest::newRow("127 prefix hostname") << "wss://127.example.com/"
                                         << "wss://127.example.com";
    QTest::newRow("trailing slash") << "wss://relay.example.com/"
                                    << "wss://relay.example.com";
    QTest::newRow("path trailing slashes") << "https://relay.example.com/events//"
                                           << "https://relay.example.com/events";
    QTest::newRow("host lower-cased") << "wss://Relay.Example.COM/Path"
                                      << "wss://relay.example.com/Path";
    QTest::newRow("default wss port") << "wss://relay.example.com:443/"
                                      << "wss://relay.example.com";
    QTest::newRow("default ws port") << "ws://relay.example.com:80"
                                     << "ws://relay.example.com";
    QTest::newRow("default http port") << "http://localhost:80/query"
                                       << "http://127.0.0.1/query";
    QTest::newRow("443 on ws is not default") << "ws://relay.example.com:443"
                                              << "ws://relay.example.com:443";
    QTest::newRow("trailing dot") << "http://relay.example.com.:80/query"
                                  << "http://relay.example.com/query";
    QTest::newRow("loopback trailing dot") << "ws://localhost.:3000"
                                           << "ws://127.0.0.1:3000";
    QTest::newRow("scheme kept") << "wss://localhost:3000"
                                 << "wss://127.0.0.1:3000";
    QTest::newRow("query kept") << "http://localhost:3000/query/?a=b"
                                << "http://127.0.0.1:3000/query?a=b";
    QTest::newRow("surrounding space") << "  ws://localhost:3000/  "
                                       << "ws://127.0.0.1:3000";
}

void TestNostrAuth::relayUrlNormalisation()
{
    QFETCH(QString, url);
    QFETCH(QString, normalised);
    QCOMPARE(QString::fromStdString(normalizeRelayUrl(url.toStdString())), normalised);
}

void TestNostrAuth::httpAndWsBases()
{
    QCOMPARE(httpBaseFromRelayUrl("ws://127.0.0.1:3000/"), std::string("http://127.0.0.1:3000"));
    QCOMPARE(httpBaseFromRelayUrl("wss://relay.example.com"),
             std::string("https://relay.example.com"));
    QCOMPARE(httpBaseFromRelayUrl("WSS://relay.example.com/"),
             std::string("https://relay.example.com"));
    QCOMPARE(httpBaseFromRelayUrl("https://relay.example.com/"),
             std::string("https://relay.example.com"));
    QCOMPARE(wsUrlFromHttpBase("http://127.0.0.1:3000"), std::string("ws://127.0.0.1:3000"));
    QCOMPARE(wsUrlFromHttpBase("https://relay.example.com"),
             std::string("wss://relay.example.com"));
    QCOMPARE(wsUrlFromHttpBase("wss://relay.example.com"), std::string("wss://relay.example.com"));
}

void TestNostrAuth::hostNormalisation_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("plain") << "relay.example.com"
                           << "relay.example.com";
    QTest::newRow("case and space") << "  Relay.Example.com "
                                    << "relay.example.com";
    QTest::newRow("port 443") << "relay.example.com:443"
                              << "relay.example.com";
    QTest::newRow("port 80") << "relay.example.com:80"
                             << "relay.example.com";
    QTest::newRow("other port kept") << "relay.example.com:8443"
                                     << "relay.example.com:8443";
    QTest::newRow("trailing dot") << "relay.example.com."
                                  << "relay.example.com";
    QTest::newRow("localhost with port") << "localhost:3000"
                                         << "127.0.0.1:3000";
    QTest::newRow("localhost trailing dot") << "localhost."
                                            << "127.0.0.1";
    QTest::newRow("ipv6 loopback") << "[::1]:3000"
                                   << "127.0.0.1:3000";
    QTest::newRow("127/8") << "127.0.0.2"
                           << "127.0.0.1";
}

void TestNostrAuth::hostNormalisation()
{
    QFETCH(QString, host);
    QFETCH(QString, normalised);
    QCOMPARE(QString::fromStdString(normalizeHost(host.toStdString())), normalised);
}

void TestNostrAuth::nip42BuiltEventVerifies()
{
    const Event event = nip42::buildAuthEvent(testKey(), kRelayUrl, kChallenge, kNow);
    QCOMPARE(event.kind, nip42::kAuthKind);
    QCOMPARE(event.content, std::string());
    QVERIFY(event.tags == (Tags {{"relay", kRelayUrl}, {"challenge", kChallenge}}));
    QCOMPARE(event.pubkey, testKey().publicKeyHex());
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow), std::nullopt);
    // Loopback spellings and a trailing slash are the same relay; ±60 s is inside the window.
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, "ws://127.0.0.1:3000/", kNow + 60),
             std::nullopt);
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, "ws://[::1]:3000", kNow - 60), std::nullopt);
}

void TestNostrAuth::nip42WrongKind()
{
    const Event event = signedEvent(1, {{"relay", kRelayUrl}, {"challenge", kChallenge}});
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>("wrong kind: expected 22242, got 1"));
}

void TestNostrAuth::nip42BadId()
{
    Event event = nip42::buildAuthEvent(testKey(), kRelayUrl, kChallenge, kNow);
    const std::string signedId = event.id;
    event.createdAt += 1;
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             "invalid event id: computed " + event.computeId() + ", got " + signedId);
}

void TestNostrAuth::nip42BadSignature()
{
    Event event = nip42::buildAuthEvent(testKey(), kRelayUrl, kChallenge, kNow);
    event.sig[5] = event.sig[5] == '0' ? '1' : '0';
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>("invalid schnorr signature"));
}

void TestNostrAuth::nip42ChallengeMismatch()
{
    const Event event = nip42::buildAuthEvent(testKey(), kRelayUrl, "other-challenge", kNow);
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>("challenge mismatch"));
}

void TestNostrAuth::nip42MissingChallengeTag()
{
    const Event event = signedEvent(nip42::kAuthKind, {{"relay", kRelayUrl}});
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>("missing challenge tag"));
}

void TestNostrAuth::nip42MissingRelayTag()
{
    const Event event = signedEvent(nip42::kAuthKind, {{"challenge", kChallenge}});
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>("missing relay tag"));
}

void TestNostrAuth::nip42WrongUrl()
{
    const Event otherHost =
        nip42::buildAuthEvent(testKey(), "ws://relay.example.com", kChallenge, kNow);
    QCOMPARE(nip42::verifyAuthEvent(otherHost, kChallenge, kRelayUrl, kNow),
             std::optional<std::string>(
                 "relay URL mismatch: event has `ws://relay.example.com`, expected "
                 "`ws://localhost:3000`"));
    // The scheme is part of the identity: ws is not wss.
    const Event secure = nip42::buildAuthEvent(testKey(), "wss://localhost:3000", kChallenge, kNow);
    QCOMPARE(
        nip42::verifyAuthEvent(secure, kChallenge, kRelayUrl, kNow),
        std::optional<std::string>("relay URL mismatch: event has `wss://localhost:3000`, expected "
                                   "`ws://localhost:3000`"));
}

void TestNostrAuth::nip42Stale()
{
    const Event event = nip42::buildAuthEvent(testKey(), kRelayUrl, kChallenge, kNow);
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow + 61),
             std::optional<std::string>("timestamp outside ±60s window (delta: 61s)"));
    QCOMPARE(nip42::verifyAuthEvent(event, kChallenge, kRelayUrl, kNow - 300),
             std::optional<std::string>("timestamp outside ±60s window (delta: 300s)"));
}

void TestNostrAuth::nip98BuiltHeaderVerifies()
{
    const std::string header =
        nip98::buildAuthorizationHeader(testKey(), kQueryUrl, "POST", kBody, kNow);
    QVERIFY(header.starts_with("Nostr "));
    const Expected<Event> event =
        nip98::verifyAuthorizationHeader(header, kQueryUrl, "POST", kBody, kNow);
    QVERIFY2(event.hasValue(), event.hasValue() ? "" : event.error().c_str());
    QCOMPARE(event->kind, nip98::kHttpAuthKind);
    QCOMPARE(event->pubkey, testKey().publicKeyHex());
    QCOMPARE(event->content, std::string());
    // Tag order as the desktop sends it: u, method, payload, nonce (a UUID v4).
    QCOMPARE(event->tags.size(), std::size_t(4));
    QVERIFY(event->tags[0] == (Tag {"u", kQueryUrl}));
    QVERIFY(event->tags[1] == (Tag {"method", "POST"}));
    QVERIFY(event->tags[2] == (Tag {"payload", sha256Hex(kBody)}));
    QCOMPARE(event->tags[3][0], std::string("nonce"));
    const QUuid nonce(QString::fromStdString(event->tags[3][1]));
    QVERIFY(!nonce.isNull());
    QCOMPARE(nonce.version(), QUuid::Random);

    // The same request in the same second still gets a distinct id (replay protection).
    const Event first = nip98::buildHttpAuthEvent(testKey(), kQueryUrl, "POST", std::nullopt, kNow);
    const Event second =
        nip98::buildHttpAuthEvent(testKey(), kQueryUrl, "POST", std::nullopt, kNow);
    QVERIFY(first.id != second.id);
    QCOMPARE(first.tagValue("payload"), nullptr);

    // No payload tag: any body is accepted. Method is case-insensitive; the server URL may be
    // spelled with localhost and a trailing slash; the window is ±60 s inclusive.
    QCOMPARE(verifyError(headerFor(first), "anything"), std::string("<valid>"));
    QVERIFY(nip98::verifyAuthorizationHeader(headerFor(first), "http://localhost:3000/query/",
                                             "post", "", kNow + 60));
}

void TestNostrAuth::nip98MissingHeader()
{
    QCOMPARE(verifyError(""), std::string("missing Nostr auth"));
    QCOMPARE(verifyError("Bearer abc"), std::string("missing Nostr auth"));
    QCOMPARE(verifyError("nostr abc"), std::string("missing Nostr auth"));
}

void TestNostrAuth::nip98Base64AndJsonErrors()
{
    QCOMPARE(verifyError("Nostr "), std::string("invalid base64 in Nostr auth"));
    QCOMPARE(verifyError("Nostr !!!notbase64"), std::string("invalid base64 in Nostr auth"));
    QCOMPARE(verifyError("Nostr "
                         + QByteArray("{}").toBase64(QByteArray::Base64UrlEncoding).toStdString()
                         + "_-"),
             std::string("invalid base64 in Nostr auth"));
    QCOMPARE(verifyError(headerFor(std::string("\xff\xfe{}"))),
             std::string("invalid UTF-8 in Nostr auth"));
    QCOMPARE(verifyError(headerFor(std::string("\xed\xa0\x80"))),
             std::string("invalid UTF-8 in Nostr auth"));
    QCOMPARE(verifyError(headerFor(std::string("{}"))), std::string("invalid NIP-98 event JSON"));
    QCOMPARE(verifyError(headerFor(std::string("not json"))),
             std::string("invalid NIP-98 event JSON"));
    Event event = signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody));
    nlohmann::json withBadKind = event.toJsonValue();
    withBadKind["kind"] = "27235";
    QCOMPARE(verifyError(headerFor(withBadKind.dump())), std::string("invalid NIP-98 event JSON"));
}

void TestNostrAuth::nip98WrongKind()
{
    const Event event = signedEvent(1, httpTags(kQueryUrl, "POST", kBody));
    QCOMPARE(verifyError(headerFor(event)), kFailed + "expected kind 27235, got 1");
}

void TestNostrAuth::nip98BadSignature()
{
    Event badSig = signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody));
    badSig.sig[100] = badSig.sig[100] == '0' ? '1' : '0';
    QCOMPARE(verifyError(headerFor(badSig)), kFailed + "invalid Schnorr signature");
    // A bad id is reported the same way by the real relay.
    Event badId = signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody));
    badId.createdAt -= 1;
    QCOMPARE(verifyError(headerFor(badId)), kFailed + "invalid Schnorr signature");
}

void TestNostrAuth::nip98Stale()
{
    const Event old =
        signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody), kNow - 61);
    QCOMPARE(verifyError(headerFor(old)),
             kFailed + "event timestamp outside ±60s window (delta: 61s)");
    const Event future =
        signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody), kNow + 3600);
    QCOMPARE(verifyError(headerFor(future)),
             kFailed + "event timestamp outside ±60s window (delta: 3600s)");
}

void TestNostrAuth::nip98MissingUrlTag()
{
    const Event event = signedEvent(nip98::kHttpAuthKind, {{"method", "POST"}});
    QCOMPARE(verifyError(headerFor(event)), kFailed + "missing `u` tag");
}

void TestNostrAuth::nip98WrongUrl()
{
    const Event otherPath =
        signedEvent(nip98::kHttpAuthKind, httpTags("http://127.0.0.1:3000/events", "POST", kBody));
    QCOMPARE(verifyError(headerFor(otherPath)),
             kFailed + "URL mismatch: event has `http://127.0.0.1:3000/events`, expected `"
                 + kQueryUrl + "`");
    const Event wsScheme =
        signedEvent(nip98::kHttpAuthKind, httpTags("ws://127.0.0.1:3000/query", "POST", kBody));
    QCOMPARE(verifyError(headerFor(wsScheme)),
             kFailed + "URL mismatch: event has `ws://127.0.0.1:3000/query`, expected `" + kQueryUrl
                 + "`");
}

void TestNostrAuth::nip98MissingMethodTag()
{
    const Event event = signedEvent(nip98::kHttpAuthKind, {{"u", kQueryUrl}});
    QCOMPARE(verifyError(headerFor(event)), kFailed + "missing `method` tag");
}

void TestNostrAuth::nip98WrongMethod()
{
    const Event event = signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "GET", kBody));
    QCOMPARE(verifyError(headerFor(event)),
             kFailed + "method mismatch: event has `GET`, expected `POST`");
}

void TestNostrAuth::nip98PayloadMismatch()
{
    const Event event = signedEvent(nip98::kHttpAuthKind, httpTags(kQueryUrl, "POST", kBody));
    QCOMPARE(verifyError(headerFor(event), kBody + " "),
             kFailed + "payload tag SHA-256 mismatch: request body does not match signed hash");
    QCOMPARE(verifyError(headerFor(event), ""),
             kFailed + "payload tag SHA-256 mismatch: request body does not match signed hash");
}

QTEST_GUILESS_MAIN(TestNostrAuth)
#include "test_nostr_auth.moc"
