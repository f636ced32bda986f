// NIP-19 bech32 entities against the public vectors, and the rejection rules.
#include "TestData.h"

#include "net/nostr/Bech32.h"
#include "net/nostr/Nip19.h"

#include <QTest>

using namespace buzz::nostr;
using buzz::Expected;

namespace {

// Replaces the data character at `index` with a different bech32 character.
std::string withCharReplaced(std::string text, std::size_t index)
{
    text[index] = text[index] == 'q' ? 'p' : 'q';
    return text;
}

} // namespace

class TestNostrNip19 : public QObject
{
    Q_OBJECT

private slots:
    void vectorsRoundTrip_data();
    void vectorsRoundTrip();
    void badChecksumRejected_data() { vectorsRoundTrip_data(); }
    void badChecksumRejected();
    void wrongPrefixRejected();
    void wrongLengthRejected();
    void malformedRejected();
    void neventOptionalFields();
    void neventRejectsBadTlv();
    void shortNpub();
};

void TestNostrNip19::vectorsRoundTrip_data()
{
    QTest::addColumn<QByteArray>("row");
    int index = 0;
    for (const nlohmann::json &row : testdata::readJsonLines("nip19.jsonl")) {
        QTest::addRow("%d %s", index++, row["type"].get<std::string>().c_str())
            << QByteArray::fromStdString(row.dump());
    }
    QCOMPARE(index, 32);
}

void TestNostrNip19::vectorsRoundTrip()
{
    QFETCH(QByteArray, row);
    const nlohmann::json vector = nlohmann::json::parse(row.toStdString());
    const std::string type = vector["type"];
    const std::string bech32 = vector["bech32"];
    if (type == "nevent") {
        nip19::EventPointer pointer;
        pointer.id = vector["id"];
        pointer.relays = vector["relays"].get<std::vector<std::string>>();
        if (vector.contains("author"))
            pointer.author = vector["author"].get<std::string>();
        if (vector.contains("kind"))
            pointer.kind = vector["kind"].get<std::uint32_t>();
        QCOMPARE(nip19::encodeNevent(pointer), bech32);
        const Expected<nip19::EventPointer> decoded = nip19::decodeNevent(bech32);
        QVERIFY2(decoded.hasValue(), decoded.hasValue() ? "" : decoded.error().c_str());
        QVERIFY(decoded.value() == pointer);
        return;
    }
    const std::string hex = vector["hex"];
    Expected<std::string> decoded = std::string();
    if (type == "npub") {
        QCOMPARE(nip19::encodeNpub(hex), bech32);
        decoded = nip19::decodeNpub(bech32);
    } else if (type == "nsec") {
        QCOMPARE(nip19::encodeNsec(hex), bech32);
        decoded = nip19::decodeNsec(bech32);
    } else if (type == "note") {
        QCOMPARE(nip19::encodeNote(hex), bech32);
        decoded = nip19::decodeNote(bech32);
    } else {
        QFAIL(("unknown vector type " + type).c_str());
    }
    QVERIFY2(decoded.hasValue(), decoded.hasValue() ? "" : decoded.error().c_str());
    QCOMPARE(decoded.value(), hex);
}

void TestNostrNip19::badChecksumRejected()
{
    QFETCH(QByteArray, row);
    const nlohmann::json vector = nlohmann::json::parse(row.toStdString());
    const std::string type = vector["type"];
    const std::string bech32 = vector["bech32"];
    // A change in the data part, in the checksum itself, and in the prefix's case-folded form.
    for (const std::size_t index : {bech32.find('1') + 3, bech32.size() - 1, bech32.size() / 2}) {
        const std::string corrupted = withCharReplaced(bech32, index);
        std::string error;
        if (type == "npub")
            error = nip19::decodeNpub(corrupted).error();
        else if (type == "nsec")
            error = nip19::decodeNsec(corrupted).error();
        else if (type == "note")
            error = nip19::decodeNote(corrupted).error();
        else
            error = nip19::decodeNevent(corrupted).error();
        QCOMPARE(error, std::string("bad checksum"));
    }
}

void TestNostrNip19::wrongPrefixRejected()
{
    const std::string hex = "d1a5ac9a015fac2ef7b341673635512a1511f41fe37d111b267f039eec5d4f58";
    QCOMPARE(nip19::decodeNpub(nip19::encodeNsec(hex)).error(),
             std::string("wrong prefix: expected npub, got nsec"));
    QCOMPARE(nip19::decodeNsec(nip19::encodeNpub(hex)).error(),
             std::string("wrong prefix: expected nsec, got npub"));
    QCOMPARE(nip19::decodeNote(nip19::encodeNpub(hex)).error(),
             std::string("wrong prefix: expected note, got npub"));
    QCOMPARE(nip19::decodeNevent(nip19::encodeNote(hex)).error(),
             std::string("wrong prefix: expected nevent, got note"));
}

void TestNostrNip19::wrongLengthRejected()
{
    const std::vector<std::uint8_t> short31(31, 0xab);
    const std::vector<std::uint8_t> long33(33, 0xab);
    QCOMPARE(nip19::decodeNpub(bech32::encode("npub", short31)).error(),
             std::string("wrong length: expected 32 bytes, got 31"));
    QCOMPARE(nip19::decodeNsec(bech32::encode("nsec", long33)).error(),
             std::string("wrong length: expected 32 bytes, got 33"));
    QCOMPARE(nip19::decodeNote(bech32::encode("note", {})).error(),
             std::string("wrong length: expected 32 bytes, got 0"));
}

void TestNostrNip19::malformedRejected()
{
    const std::string npub = "npub16xj6exspt7kzaaang9nnvd239g23raqlud73zxex0upeamzafavqx0ccqe";
    std::string upper = npub;
    for (char &c : upper)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    // All upper case is valid bech32; mixing cases is not.
    QCOMPARE(nip19::decodeNpub(upper).value(), nip19::decodeNpub(npub).value());
    std::string mixed = npub;
    mixed[10] = char(std::toupper(static_cast<unsigned char>(mixed[10])));
    QCOMPARE(nip19::decodeNpub(mixed).error(), std::string("mixed case"));
    std::string badChar = npub;
    badChar[10] = 'b'; // not in the bech32 alphabet
    QCOMPARE(nip19::decodeNpub(badChar).error(), std::string("invalid character"));
    QCOMPARE(nip19::decodeNpub("npubqqqqqq").error(), std::string("missing separator"));
    QCOMPARE(nip19::decodeNpub("").error(), std::string("missing separator"));
    QVERIFY(!bech32::decode(npub, 20));
    QVERIFY(bech32::decode(npub).has_value());
    QCOMPARE(nip19::encodeNpub("not hex"), std::string());
}

void TestNostrNip19::neventOptionalFields()
{
    nip19::EventPointer bare;
    bare.id = "5c88e7a226e11ad1204cb8d30cd5d6ff6cba69bc32da73134928e17c90c54086";
    const std::string encoded = nip19::encodeNevent(bare);
    QVERIFY(encoded.starts_with("nevent1"));
    QVERIFY(nip19::decodeNevent(encoded).value() == bare);

    nip19::EventPointer full = bare;
    full.relays = {"wss://a.example", "wss://b.example/path"};
    full.author = "d1a5ac9a015fac2ef7b341673635512a1511f41fe37d111b267f039eec5d4f58";
    full.kind = 0xfffffffe;
    QVERIFY(nip19::decodeNevent(nip19::encodeNevent(full)).value() == full);
}

void TestNostrNip19::neventRejectsBadTlv()
{
    // Missing id (only a relay entry).
    std::vector<std::uint8_t> relayOnly = {1, 3, 'w', 's', 's'};
    QCOMPARE(nip19::decodeNevent(bech32::encode("nevent", relayOnly)).error(),
             std::string("missing event id"));
    // Truncated: announces 32 bytes, carries 4.
    std::vector<std::uint8_t> truncated = {0, 32, 1, 2, 3, 4};
    QCOMPARE(nip19::decodeNevent(bech32::encode("nevent", truncated)).error(),
             std::string("truncated TLV entry"));
    // Id of the wrong size.
    std::vector<std::uint8_t> shortId(2 + 31, 0x11);
    shortId[0] = 0;
    shortId[1] = 31;
    QCOMPARE(nip19::decodeNevent(bech32::encode("nevent", shortId)).error(),
             std::string("wrong length: expected 32 bytes, got 31"));
    // Unknown TLV types are skipped.
    std::vector<std::uint8_t> withUnknown = {9, 2, 0xaa, 0xbb, 0, 32};
    withUnknown.resize(withUnknown.size() + 32, 0x22);
    QCOMPARE(nip19::decodeNevent(bech32::encode("nevent", withUnknown))->id, std::string(64, '2'));
}

void TestNostrNip19::shortNpub()
{
    const std::string hex = "d1a5ac9a015fac2ef7b341673635512a1511f41fe37d111b267f039eec5d4f58";
    QCOMPARE(nip19::shortNpub(hex), std::string("npub16xj6e…ccqe"));
}

QTEST_GUILESS_MAIN(TestNostrNip19)
#include "test_nostr_nip19.moc"
