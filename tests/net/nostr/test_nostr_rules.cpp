// The protocol rules the client and the relay share: which version of an event is current
// (isNewer), and building a signed event in one step.
#include "net/nostr/EventOrder.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"

#include <QString>
#include <QTest>

using namespace buzz::nostr;

class TestNostrRules : public QObject
{
    Q_OBJECT

private slots:
    void newerCreatedAtWins()
    {
        QVERIFY(isNewer<std::string>(101, "ff", 100, "00"));
        QVERIFY(!isNewer<std::string>(100, "00", 101, "ff"));
    }

    void sameSecondLowerIdWins()
    {
        // The relay's ORDER BY created_at DESC, id ASC: "current" is the lower id.
        QVERIFY(isNewer<std::string>(100, "0a", 100, "0b"));
        QVERIFY(!isNewer<std::string>(100, "0b", 100, "0a"));
        QVERIFY(!isNewer<std::string>(100, "0a", 100, "0a")); // never newer than itself
        QVERIFY(isNewer(100, QStringLiteral("0a"), 100, QStringLiteral("0b")));
    }

    void eventsCompareByTheirFields()
    {
        const SecretKey key = SecretKey::generate();
        const Event older = key.signedEvent(kinds::kProfile, 100, {}, "{}");
        const Event newer = key.signedEvent(kinds::kProfile, 101, {}, "{}");
        QVERIFY(isNewer(newer, older));
        QVERIFY(!isNewer(older, newer));
        const Event twin = key.signedEvent(kinds::kProfile, 100, {}, "{\"name\":\"x\"}");
        QCOMPARE(isNewer(twin, older), twin.id < older.id);
    }

    void signedEventIsComplete()
    {
        const SecretKey key = SecretKey::generate();
        const Event event =
            key.signedEvent(kinds::kCanvas, 1'790'000'000,
                            {{"h", "3f1c2b9e-0000-4000-8000-000000000000"}}, "# Canvas\n");
        QCOMPARE(event.kind, 40100);
        QCOMPARE(event.createdAt, std::int64_t(1'790'000'000));
        QCOMPARE(event.pubkey, key.publicKeyHex());
        QCOMPARE(event.content, std::string("# Canvas\n"));
        QCOMPARE(event.tagCount("h"), 1);
        QCOMPARE(event.id, event.computeId());
        QVERIFY(event.verify());
    }
};

QTEST_GUILESS_MAIN(TestNostrRules)
#include "test_nostr_rules.moc"
