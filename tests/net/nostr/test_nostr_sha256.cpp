// nostr::sha256 hashes every event's canonical form (ids, signature checks, NIP-98 payloads). It
// runs on the CPU's SHA extensions where there are any: the digests must be SHA-256's, for the
// FIPS 180 examples and for every length around the 64-byte block and its 9 bytes of padding.

#include "net/nostr/Hex.h"
#include "net/nostr/Sha256.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QTest>

using namespace buzz::nostr;

namespace {

std::string hexOf(const Sha256Digest &digest)
{
    return toHex(digest.data(), digest.size());
}

std::string qtSha256(const std::string &data)
{
    return QCryptographicHash::hash(QByteArrayView(data.data(), qsizetype(data.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

std::string randomBytes(std::size_t size, QRandomGenerator &random)
{
    std::string bytes(size, '\0');
    for (char &byte : bytes)
        byte = char(random.bounded(256));
    return bytes;
}

} // namespace

class TestNostrSha256 : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qInfo("SHA-256 on the CPU's SHA extensions: %s",
              sha256UsesCpuExtensions() ? "yes" : "no (Qt's portable implementation)");
    }

    void fipsExamples_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QByteArray>("digest");
        QTest::newRow("empty") << QByteArray()
                               << QByteArray("e3b0c44298fc1c149afbf4c8996fb924"
                                             "27ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc")
                             << QByteArray("ba7816bf8f01cfea414140de5dae2223"
                                           "b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("two blocks")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("a million a") << QByteArray(1000000, 'a')
                                     << QByteArray("cdc76e5c9914fb9281a1c7e284d73e67"
                                                   "f1809a48a497200e046d39ccc7112cd0");
    }

    void fipsExamples()
    {
        QFETCH(QByteArray, message);
        QFETCH(QByteArray, digest);
        QCOMPARE(QByteArray::fromStdString(sha256Hex(message.toStdString())), digest);
    }

    // Every length from empty to 17 blocks, then large inputs: each tail, padding in the same
    // block or in one more, and the length's bytes.
    void everyLengthMatchesQt()
    {
        QRandomGenerator random(26);
        for (std::size_t size = 0; size <= 17 * 64; ++size) {
            const std::string data = randomBytes(size, random);
            QCOMPARE(hexOf(sha256(data)), qtSha256(data));
        }
        for (const std::size_t size :
             {std::size_t(256 * 1024), std::size_t(1 << 20) + 55, std::size_t(3 << 20) + 63}) {
            const std::string data = randomBytes(size, random);
            QCOMPARE(hexOf(sha256(data)), qtSha256(data));
        }
    }
};

QTEST_GUILESS_MAIN(TestNostrSha256)
#include "test_nostr_sha256.moc"
