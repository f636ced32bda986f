#include "canvas/Identity.h"
#include "net/nostr/Nip19.h"

#include <QCoroTask>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using buzz::canvas::Identity;

namespace {

// A known key pair (BIP-340 test vector 1).
const QString kSecretHex =
    QStringLiteral("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");
const QString kPublicHex =
    QStringLiteral("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659");

template<class T>
T run(QCoro::Task<T> task)
{
    return QCoro::waitFor(std::move(task));
}

} // namespace

class TestIdentity : public QObject
{
    Q_OBJECT

private slots:
    void init() { qunsetenv("BUZZ_PRIVATE_KEY"); }
    void cleanup() { qunsetenv("BUZZ_PRIVATE_KEY"); }

    void noKeyAnywhere()
    {
        QTemporaryDir dir;
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(!run(identity.load()));
        QVERIFY(!identity.hasKey());
        QCOMPARE(identity.source(), Identity::Source::None);
    }

    void importHexStoresNsecInOwnerOnlyFile()
    {
        QTemporaryDir dir;
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        const auto imported = run(identity.import(kSecretHex));
        QVERIFY(imported.hasValue());
        QCOMPARE(identity.publicKeyHex(), kPublicHex);
        QCOMPARE(identity.source(), Identity::Source::File);
        QCOMPARE(identity.storageDescription(), identity.keyFilePath());

        QFile file(identity.keyFilePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll().trimmed();
        QVERIFY(stored.startsWith("nsec1"));
        QCOMPARE(QFile::permissions(identity.keyFilePath()) & 0x0077,
                 QFile::Permissions()); // no group/other bits
        QVERIFY(!(QFile::permissions(identity.keyFilePath())
                  & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup
                     | QFileDevice::WriteOther)));

        Identity reloaded(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(run(reloaded.load()));
        QCOMPARE(reloaded.publicKeyHex(), kPublicHex);
        QCOMPARE(reloaded.npub(),
                 QString::fromStdString(buzz::nostr::nip19::encodeNpub(kPublicHex.toStdString())));
    }

    void importNsecAndRejectGarbage()
    {
        QTemporaryDir dir;
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        const QString nsec =
            QString::fromStdString(buzz::nostr::nip19::encodeNsec(kSecretHex.toStdString()));
        QVERIFY(run(identity.import(nsec)).hasValue());
        QCOMPARE(identity.publicKeyHex(), kPublicHex);
        const auto bad = run(identity.import(QStringLiteral("nsec1notakey")));
        QVERIFY(!bad.hasValue());
        QVERIFY(bad.error().contains(QStringLiteral("invalid secret key")));
        QCOMPARE(identity.publicKeyHex(), kPublicHex); // unchanged
    }

    void environmentOverridesStoredKey()
    {
        QTemporaryDir dir;
        {
            Identity identity(dir.path(), Identity::KeychainUse::Never);
            QVERIFY(run(identity.generate()));
        }
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(run(identity.load(kSecretHex.toLatin1())));
        QCOMPARE(identity.source(), Identity::Source::Environment);
        QCOMPARE(identity.publicKeyHex(), kPublicHex);
    }

    void libraryReadsNoEnvironment()
    {
        // The apps read BUZZ_PRIVATE_KEY and hand it to load(); the library itself must not, or
        // a test or an embedding program could not control which key it signs with.
        QTemporaryDir dir;
        QString stored;
        {
            Identity identity(dir.path(), Identity::KeychainUse::Never);
            QVERIFY(run(identity.generate()));
            stored = identity.publicKeyHex();
        }
        qputenv("BUZZ_PRIVATE_KEY", kSecretHex.toLatin1());
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(run(identity.load()));
        QCOMPARE(identity.source(), Identity::Source::File);
        QCOMPARE(identity.publicKeyHex(), stored);
    }

    void corruptFileIsMovedAsideNotOverwritten()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("identity.key")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a key");
        file.close();
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(!run(identity.load()));
        QVERIFY(!QFile::exists(identity.keyFilePath()));
        const QStringList aside =
            QDir(dir.path()).entryList({QStringLiteral("identity.key.bad.*")});
        QCOMPARE(aside.size(), 1);
        QVERIFY(identity.lastError().contains(QStringLiteral("moved aside")));
    }

    void generateWithoutKeychainFallsBackToFile()
    {
        // No Secret Service runs in the test environment: the key must land in identity.key.
        QTemporaryDir dir;
        Identity identity(dir.path(), Identity::KeychainUse::Try);
        QVERIFY(run(identity.generate()));
        QVERIFY(identity.hasKey());
        if (identity.source() == Identity::Source::Keychain)
            QSKIP("a keychain is available here; the file fallback is not exercised");
        QCOMPARE(identity.source(), Identity::Source::File);
        QVERIFY(QFile::exists(identity.keyFilePath()));
    }

    void explicitKeyIsNotStored()
    {
        QTemporaryDir dir;
        Identity identity(dir.path(), Identity::KeychainUse::Never);
        QVERIFY(identity.useExplicit(kSecretHex).hasValue());
        QCOMPARE(identity.source(), Identity::Source::Explicit);
        QVERIFY(!QFile::exists(identity.keyFilePath()));
        QVERIFY(!identity.useExplicit(QStringLiteral("xyz")).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestIdentity)
#include "test_identity.moc"
