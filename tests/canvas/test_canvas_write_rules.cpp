// CanvasWriteRules is the app's one answer to "can I edit this canvas" and "can I send this text".
// The relay is the oracle: for every kind of channel a client can meet, the verdict the client
// derives from what it reads (ChannelService::info) must match what the relay's ingest does with a
// real save, and an oversized canvas is refused before anything is sent, in the relay's own words.

#include "CanvasTestSupport.h"
#include "canvas/CanvasWriteRules.h"
#include "canvas/ChannelService.h"
#include "relay/RelayEngine.h"

#include <QRandomGenerator>
#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasWriteRules;
using buzz::canvas::ChannelInfo;
using buzz::test::await;
using buzz::test::CanvasClient;
using Access = buzz::canvas::CanvasWriteRules::Access;
using Kind = buzz::canvas::SaveOutcome::Kind;

class TestCanvasWriteRules : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;

    relay::IngestResult ingest(const relay::test::TestIdentity &who, const nostr::Event &event)
    {
        return m_relay->relay->engine().ingest(
            event,
            relay::RequestContext {relay::RelayServer::kDefaultCommunity, who.pubkey(),
                                   relay::Transport::Http});
    }

    // What `reader` sees of the channel (metadata and its own membership).
    ChannelInfo seenBy(CanvasClient &reader, const std::string &channel)
    {
        canvas::ChannelService channels(reader.connection.get());
        auto info = await(channels.info(QString::fromStdString(channel)));
        return info ? *info : ChannelInfo {};
    }

    // The verdict derived from `seen` (the channel as the client knows it), and whether the relay
    // then takes `client`'s save.
    void checkAgreement(CanvasClient &client, const ChannelInfo &seen, Access expected)
    {
        QVERIFY(!seen.id.isEmpty());
        QCOMPARE(CanvasWriteRules::access(seen), expected);
        QCOMPARE(seen.canEditCanvas(), expected == Access::Allowed);
        const QString text =
            QStringLiteral("hello from %1\n").arg(QString::fromStdString(client.identity.pubkey()));
        const auto head = await(client.service->head(seen.id, canvas::ReadIntent::Strong));
        QVERIFY(head);
        const auto outcome = await(client.service->save(seen.id, *head, text));
        if (expected == Access::Allowed) {
            COMPARE_KIND(outcome, Kind::SavedVerified);
        } else {
            COMPARE_KIND(outcome, Kind::Error);
            QVERIFY(outcome.error);
            const char *wording = expected == Access::Archived ? "invalid: channel is archived"
                                                               : "restricted: not a channel member";
            QVERIFY2(outcome.error->message.contains(QLatin1String(wording)),
                     qPrintable(outcome.error->message));
        }
    }

    static ChannelInfo asNonMember(ChannelInfo info)
    {
        info.isMember = false;
        info.myRole.clear();
        return info;
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
    }
    void cleanup() { m_relay.reset(); }

    void openChannelTakesAnyonesCanvas()
    {
        // The bug this rule fixes: the app said "read-only until you join" while the relay stored a
        // non-member's saves to an open channel.
        CanvasClient owner(m_relay->proxy.url());
        CanvasClient visitor(m_relay->proxy.url());
        const std::string channel = m_relay->relay->createChannel(owner.identity, "open-plans");
        QVERIFY(!channel.empty());
        checkAgreement(visitor, seenBy(visitor, channel), Access::Allowed);
        checkAgreement(owner, seenBy(owner, channel), Access::Allowed);
    }

    void privateChannelOnlyForMembers()
    {
        CanvasClient owner(m_relay->proxy.url());
        CanvasClient visitor(m_relay->proxy.url());
        const std::string channel =
            m_relay->relay->createChannel(owner.identity, "secret", "private");
        QVERIFY(!channel.empty());
        checkAgreement(owner, seenBy(owner, channel), Access::Allowed);
        // A non-member cannot even read a private channel's metadata; the app holds such a channel
        // only as it knew it before leaving or being removed: not a member.
        QCOMPARE(seenBy(visitor, channel).id, QString());
        checkAgreement(visitor, asNonMember(seenBy(owner, channel)), Access::NotMember);
    }

    void archivedChannelRefusesEveryone()
    {
        CanvasClient owner(m_relay->proxy.url());
        CanvasClient visitor(m_relay->proxy.url());
        const std::string channel = m_relay->relay->createChannel(owner.identity, "old");
        QVERIFY(!channel.empty());
        const auto archived = ingest(owner.identity,
                                     owner.identity.sign(9002, m_relay->relay->now(),
                                                         {{"h", channel}, {"archived", "true"}}));
        QVERIFY(archived.accepted());
        checkAgreement(owner, seenBy(owner, channel), Access::Archived);
        checkAgreement(visitor, seenBy(visitor, channel), Access::Archived);
    }

    void archivedPrivateChannelSaysNotAMemberFirst()
    {
        // The relay checks membership (step 8) before the archive (step 11).
        CanvasClient owner(m_relay->proxy.url());
        CanvasClient visitor(m_relay->proxy.url());
        const std::string channel =
            m_relay->relay->createChannel(owner.identity, "closed", "private");
        QVERIFY(ingest(owner.identity,
                       owner.identity.sign(9002, m_relay->relay->now(),
                                           {{"h", channel}, {"archived", "true"}}))
                    .accepted());
        const ChannelInfo known = asNonMember(seenBy(owner, channel));
        QVERIFY(known.archived);
        checkAgreement(visitor, known, Access::NotMember);
    }

    void noChannelNoWrite()
    {
        QCOMPARE(CanvasWriteRules::access(ChannelInfo {}), Access::NoChannel);
    }

    void sizeLimitIsTheRelays()
    {
        const qsizetype limit = CanvasWriteRules::kMaxContentBytes;
        QCOMPARE(limit, qsizetype(262144));
        QVERIFY(!CanvasWriteRules::checkContent(QString(limit, QLatin1Char('x'))));
        const auto over = CanvasWriteRules::checkContent(QString(limit + 1, QLatin1Char('x')));
        QVERIFY(over);
        QCOMPARE(over->message,
                 QStringLiteral("invalid: content exceeds maximum size of 262144 "
                                "bytes (got 262145)"));
        QCOMPARE(CanvasWriteRules::refusedSize(*over), std::optional<qsizetype>(limit + 1));
        // Bytes, not characters: 87 382 "€" are 262 146 UTF-8 bytes.
        QVERIFY(CanvasWriteRules::checkContent(QString(87382, QChar(0x20AC))));
        QVERIFY(!CanvasWriteRules::checkContent(QString(87381, QChar(0x20AC))));

        // The relay says the very same words for the same text.
        relay::test::TestIdentity alice;
        const std::string channel = m_relay->relay->createChannel(alice, "big");
        const auto refused = ingest(alice,
                                    alice.sign(40100, m_relay->relay->now(),
                                               {{"h", channel}, {"expected-revision", "none"}},
                                               std::string(std::size_t(limit + 1), 'x')));
        QVERIFY(!refused.accepted());
        QCOMPARE(QString::fromStdString(refused.message), over->message);
    }

    void utf8SizeCountsWithoutConverting()
    {
        auto *random = QRandomGenerator::global();
        const char32_t samples[] = {U'a', U'\n', U'é', U'€', U'中', U'😀', U'𝄞'};
        for (int round = 0; round < 50; ++round) {
            QString text;
            for (int i = 0; i < 200; ++i) {
                const char32_t c = samples[random->bounded(int(std::size(samples)))];
                text += QString::fromUcs4(&c, 1);
            }
            QCOMPARE(CanvasWriteRules::utf8Size(text), text.toUtf8().size());
        }
    }

    void oversizedSaveSendsNothing()
    {
        CanvasClient owner(m_relay->proxy.url());
        const std::string channel = m_relay->relay->createChannel(owner.identity, "huge");
        const QString text(CanvasWriteRules::kMaxContentBytes + 10, QLatin1Char('y'));
        const auto outcome =
            await(owner.service->save(QString::fromStdString(channel), std::nullopt, text));
        COMPARE_KIND(outcome, Kind::Error);
        QVERIFY(outcome.error);
        QCOMPARE(CanvasWriteRules::refusedSize(*outcome.error),
                 std::optional<qsizetype>(CanvasWriteRules::kMaxContentBytes + 10));
        QCOMPARE(int(owner.log().size()), 0); // not even the precondition read
    }
};

QTEST_GUILESS_MAIN(TestCanvasWriteRules)
#include "test_canvas_write_rules.moc"
