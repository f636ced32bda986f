// Who is here (issue 31 item 2), without widgets: PresenceModel's rules with a clock of its own,
// the verifier's rule for relay-signed presence answers, and PresenceService between two clients
// on the real relay (presence both ways, typing, "offline", the relay-signed answer used only when
// signed by the relay's own key).

#include "CanvasTestSupport.h"
#include "canvas/ChannelService.h"
#include "canvas/PresenceModel.h"
#include "canvas/PresenceService.h"
#include "net/client/EventVerifier.h"
#include "net/client/Signer.h"
#include "net/nostr/Kinds.h"
#include "relay/model/PresenceTable.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace buzz;
using canvas::PresenceModel;
using canvas::PresenceService;
using test::CanvasClient;

namespace {

const QString kAlice = QString(64, QLatin1Char('a'));
const QString kBob = QString(64, QLatin1Char('b'));
const QString kChannel = QStringLiteral("0b7c6f2e-1d3a-4c8e-9f10-2a3b4c5d6e7f");

QStringList pubkeysIn(const PresenceModel &model, const QString &channel)
{
    QStringList keys;
    for (const auto &person : model.peopleIn(channel))
        keys << person.pubkey;
    return keys;
}

} // namespace

class PresenceTest : public QObject
{
    Q_OBJECT

    qint64 m_nowMs = 1'800'000'000'000;
    qint64 nowSecs() const { return m_nowMs / 1000; }

    void useClock(PresenceModel &model)
    {
        model.setClock([this] { return m_nowMs; });
    }

private slots:
    void theShippedExpiryIsTheRelays()
    {
        QCOMPARE(qint64(PresenceModel::kDefaultExpiry.count()),
                 relay::PresenceTable::kTtlSeconds * 1000);
        QVERIFY(PresenceService::kHeartbeatInterval * 2 < PresenceModel::kDefaultExpiry);
    }

    void statusNamesTheCanvasAndWhetherItIsEdited()
    {
        const QString viewing = PresenceModel::statusFor(kChannel, false);
        const QString editing = PresenceModel::statusFor(kChannel.toUpper(), true);
        QVERIFY(viewing.toUtf8().size() <= 128); // the relay's bound on a status
        QVERIFY(editing.toUtf8().size() <= 128);
        QCOMPARE(PresenceModel::parseStatus(viewing)->channel, kChannel);
        QVERIFY(!PresenceModel::parseStatus(viewing)->editing);
        QCOMPARE(PresenceModel::parseStatus(editing)->channel, kChannel);
        QVERIFY(PresenceModel::parseStatus(editing)->editing);
        for (const char *other : {"offline", "online", "canvas:", "canvas:a:b:editing", ""})
            QVERIFY2(!PresenceModel::parseStatus(QString::fromLatin1(other)), other);
    }

    void peopleHereFollowTheirNewestStatus()
    {
        PresenceModel model;
        useClock(model);
        model.setSelf(kAlice);
        QSignalSpy changed(&model, &PresenceModel::changed);
        model.applyStatus(kAlice, PresenceModel::statusFor(kChannel, false), nowSecs(), true);
        QVERIFY(model.peopleIn(kChannel).isEmpty()); // never oneself
        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, false), nowSecs(), true);
        QCOMPARE(pubkeysIn(model, kChannel), QStringList {kBob});
        QVERIFY(!model.peopleIn(kChannel).front().editing);
        QVERIFY(changed.count() >= 1);

        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, true), nowSecs() + 1, true);
        QCOMPARE(model.editorsIn(kChannel), QStringList {kBob});
        // A status older than the one kept arrives late: it changes nothing.
        model.applyStatus(kBob, QStringLiteral("offline"), nowSecs() - 5, true);
        QCOMPARE(model.editorsIn(kChannel), QStringList {kBob});
        // Another canvas: no longer here.
        model.applyStatus(kBob, PresenceModel::statusFor(QStringLiteral("other"), false),
                          nowSecs() + 2, true);
        QVERIFY(model.peopleIn(kChannel).isEmpty());
        QCOMPARE(pubkeysIn(model, QStringLiteral("other")), QStringList {kBob});
        model.applyStatus(kBob, QStringLiteral("offline"), nowSecs() + 3, true);
        QVERIFY(model.peopleIn(QStringLiteral("other")).isEmpty());
        QVERIFY(model.knownPubkeys().isEmpty());
    }

    void aStatusNotRenewedExpiresAsTheRelayForgetsIt()
    {
        PresenceModel model;
        useClock(model);
        model.setExpiry(std::chrono::milliseconds(90000));
        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, false), nowSecs(), true);
        m_nowMs += 89000;
        model.expireNow();
        QCOMPARE(pubkeysIn(model, kChannel), QStringList {kBob});
        m_nowMs += 2000;
        QSignalSpy changed(&model, &PresenceModel::changed);
        model.expireNow();
        QVERIFY(model.peopleIn(kChannel).isEmpty());
        QCOMPARE(changed.count(), 1);

        // The relay's answer about a status set 60 s ago: it is forgotten 30 s from now, as the
        // relay forgets it.
        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, false), nowSecs() - 60, false);
        m_nowMs += 29000;
        model.expireNow();
        QCOMPARE(pubkeysIn(model, kChannel), QStringList {kBob});
        m_nowMs += 2000;
        model.expireNow();
        QVERIFY(model.peopleIn(kChannel).isEmpty());
    }

    void theModelsOwnTimerExpiresPresence()
    {
        PresenceModel model; // the real clock
        model.setExpiry(std::chrono::milliseconds(300));
        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, false),
                          QDateTime::currentSecsSinceEpoch(), true);
        QCOMPARE(int(model.peopleIn(kChannel).size()), 1);
        QTRY_VERIFY_WITH_TIMEOUT(model.peopleIn(kChannel).isEmpty(), 10000);
    }

    void typingShowsAnEditorForAWhile()
    {
        PresenceModel model;
        useClock(model);
        model.setTypingShownFor(std::chrono::milliseconds(8000));
        model.applyStatus(kBob, PresenceModel::statusFor(kChannel, false), nowSecs(), true);
        model.applyTyping(kBob, kChannel.toUpper());
        QCOMPARE(int(model.peopleIn(kChannel).size()), 1);
        QVERIFY(model.peopleIn(kChannel).front().typing);
        QCOMPARE(model.editorsIn(kChannel), QStringList {kBob});
        m_nowMs += 9000;
        model.expireNow();
        QVERIFY(!model.peopleIn(kChannel).front().typing);
        QVERIFY(model.editorsIn(kChannel).isEmpty()); // still here, no longer editing
    }

    void onlyTheRelaysKeyMaySpeakForAnAuthor()
    {
        relay::test::TestIdentity relayKey;
        relay::test::TestIdentity other;
        relay::test::TestIdentity subject;
        nostr::Filter query;
        query.kinds = std::vector<int> {nostr::kinds::kPresence};
        query.authors = std::vector<std::string> {subject.pubkey()};
        const auto answer = [&](const relay::test::TestIdentity &signer, const std::string &about) {
            return signer.key.signedEvent(nostr::kinds::kPresence, nowSecs(), {{"p", about}},
                                          "canvas:x");
        };
        const std::string relayHex = relayKey.pubkey();
        using client::EventVerifier;
        QVERIFY(!EventVerifier::problem(answer(relayKey, subject.pubkey()), {query}, relayHex));
        // Signed by anyone else, about someone not asked for, or with no relay key known.
        QVERIFY(EventVerifier::problem(answer(other, subject.pubkey()), {query}, relayHex));
        QVERIFY(EventVerifier::problem(answer(relayKey, other.pubkey()), {query}, relayHex));
        QVERIFY(EventVerifier::problem(answer(relayKey, subject.pubkey()), {query}, {}));
        // A forged signature under the relay's key.
        nostr::Event forged = answer(relayKey, subject.pubkey());
        forged.content = "canvas:y";
        QVERIFY(EventVerifier::problem(forged, {query}, relayHex));
        // The author's own status still answers the query.
        const nostr::Event own =
            subject.key.signedEvent(nostr::kinds::kPresence, nowSecs(), {}, "canvas:x");
        QVERIFY(!EventVerifier::problem(own, {query}, relayHex));
    }

    void twoClientsSeeEachOtherTypeAndLeave()
    {
        test::ProxiedRelay relay;
        QVERIFY(relay.start());
        CanvasClient alice(relay.proxy.url());
        CanvasClient bob(relay.proxy.url());
        const QString channel =
            QString::fromStdString(relay.relay->createChannel(alice.identity, "here"));
        const QString aliceKey = QString::fromStdString(alice.identity.pubkey());
        const QString bobKey = QString::fromStdString(bob.identity.pubkey());
        // Bob is a member: a newcomer asks the relay about the channel's members.
        canvas::ChannelService bobChannels(bob.connection.get());
        QVERIFY(test::await(bobChannels.join(channel)));
        alice.connection->socket()->open();
        bob.connection->socket()->open();
        const auto connected = [](CanvasClient &client) {
            return client.connection->socket()->state() == client::RelaySocket::State::Connected;
        };
        QTRY_VERIFY_WITH_TIMEOUT(connected(alice) && connected(bob), 10000);

        PresenceService alicePresence(alice.connection.get());
        alicePresence.setChannel(channel);
        QSignalSpy alicePublished(&alicePresence, &PresenceService::published);
        QVERIFY(alicePublished.wait(10000));
        QVERIFY(alicePublished.first().at(1).toBool()); // the relay took it

        // Bob opens the canvas after Alice: he learns she is here from the relay's answer, which
        // the relay signs (the only way, since Alice sends nothing more for 30 s).
        PresenceService bobPresence(bob.connection.get());
        bobPresence.setChannel(channel);
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*bobPresence.model(), channel), QStringList {aliceKey},
                                  5000);
        // Alice sees Bob arrive: his own event, live.
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*alicePresence.model(), channel), QStringList {bobKey},
                                  5000);

        bobPresence.setEditing(true);
        QTRY_COMPARE_WITH_TIMEOUT(alicePresence.model()->editorsIn(channel), QStringList {bobKey},
                                  5000);
        bobPresence.setEditing(false);
        QTRY_VERIFY_WITH_TIMEOUT(alicePresence.model()->editorsIn(channel).isEmpty(), 5000);
        bobPresence.typed(); // a keystroke: kind 20002 scoped by the channel
        QTRY_VERIFY_WITH_TIMEOUT(!alicePresence.model()->peopleIn(channel).isEmpty()
                                     && alicePresence.model()->peopleIn(channel).front().typing,
                                 5000);

        bobPresence.goOffline();
        QTRY_VERIFY_WITH_TIMEOUT(alicePresence.model()->peopleIn(channel).isEmpty(), 5000);
        // And the relay's table says so too: a newcomer asking about the members (Alice and Bob)
        // is told only about Alice.
        CanvasClient carol(relay.proxy.url());
        carol.connection->socket()->open();
        QTRY_VERIFY_WITH_TIMEOUT(connected(carol), 10000);
        PresenceService carolPresence(carol.connection.get());
        carolPresence.setChannel(channel);
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*carolPresence.model(), channel),
                                  QStringList {aliceKey}, 5000);
        QVERIFY(!carolPresence.model()->knownPubkeys().contains(bobKey));
    }

    void aNewcomerSeesThoseTheRelayCannotName()
    {
        // Carol and Dave are no members of the open channel: the relay's answer about its
        // members does not name Carol, yet Dave sees her at once, as she answers his arrival.
        test::ProxiedRelay relay;
        QVERIFY(relay.start());
        relay::test::TestIdentity owner;
        const QString channel = QString::fromStdString(relay.relay->createChannel(owner, "open"));
        CanvasClient carol(relay.proxy.url());
        CanvasClient dave(relay.proxy.url());
        carol.connection->socket()->open();
        dave.connection->socket()->open();
        PresenceService carolPresence(carol.connection.get());
        carolPresence.setChannel(channel);
        QSignalSpy carolPublished(&carolPresence, &PresenceService::published);
        QVERIFY(carolPublished.wait(10000));
        PresenceService davePresence(dave.connection.get());
        davePresence.setChannel(channel);
        const QString carolKey = QString::fromStdString(carol.identity.pubkey());
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*davePresence.model(), channel), QStringList {carolKey},
                                  2000);
    }

    void signingOutSaysOfflineForTheOldIdentity()
    {
        test::ProxiedRelay relay;
        QVERIFY(relay.start());
        CanvasClient alice(relay.proxy.url());
        CanvasClient bob(relay.proxy.url());
        const QString channel =
            QString::fromStdString(relay.relay->createChannel(alice.identity, "keys"));
        const QString oldKey = QString::fromStdString(alice.identity.pubkey());
        alice.connection->socket()->open();
        bob.connection->socket()->open();
        PresenceService alicePresence(alice.connection.get());
        PresenceService bobPresence(bob.connection.get());
        alicePresence.setChannel(channel);
        bobPresence.setChannel(channel);
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*bobPresence.model(), channel), QStringList {oldKey},
                                  10000);

        // Another identity replaces Alice's in her app (import, generate): the old one leaves at
        // once, the new one arrives once its connection is up.
        relay::test::TestIdentity next;
        alice.connection->signer()->setKey(
            std::make_shared<const nostr::SecretKey>(next.key.clone()));
        const QString newKey = QString::fromStdString(next.pubkey());
        QTRY_COMPARE_WITH_TIMEOUT(pubkeysIn(*bobPresence.model(), channel), QStringList {newKey},
                                  10000);
        QVERIFY(!bobPresence.model()->knownPubkeys().contains(oldKey));
    }
};

QTEST_GUILESS_MAIN(PresenceTest)
#include "test_presence.moc"
