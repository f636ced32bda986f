// A damaged store is refused at start with an error that names the file and what to do, and is
// left exactly as it was; a missing data directory is still a fresh start, and a second relay on a
// directory already in use is refused.

#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>

using namespace buzz;
using namespace buzz::relay;

namespace {

constexpr std::int64_t kNow = 1'790'000'000;
constexpr qint64 kPageBytes = 4096;

RelayEngine::Options optionsFor(const QString &dir)
{
    RelayEngine::Options options;
    options.dataDir = dir.toStdString();
    options.clock = [] {
        return kNow;
    };
    return options;
}

// Stores `count` notes through a real engine, then shuts it down cleanly.
void fillStore(const QString &dir, int count)
{
    RelayEngine engine(optionsFor(dir));
    QVERIFY(engine.startupError().empty());
    const auto key = nostr::SecretKey::generate();
    for (int i = 0; i < count; ++i) {
        nostr::Event event;
        event.kind = 1;
        event.createdAt = kNow - i;
        event.content = "note " + std::to_string(i) + std::string(200, 'n');
        key.signEvent(event);
        QVERIFY(engine.ingest(event, RequestContext {"local", key.publicKeyHex(), Transport::Http})
                    .accepted());
    }
}

QByteArray digest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TestStoreIntegrity : public QObject
{
    Q_OBJECT
private slots:
    void emptyFileIsRefusedAndKept();
    void corruptPagesAreRefusedAndKept();
    void missingDirectoryIsAFreshStart();
    void healthyStoreReopens();
    void secondRelayOnTheSameDirectoryIsRefused();
};

void TestStoreIntegrity::emptyFileIsRefusedAndKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("relay.sqlite3"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();

    RelayEngine engine(optionsFor(dir.path()));
    const std::string error = engine.startupError();
    QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
    QVERIFY2(error.find("is empty (0 bytes)") != std::string::npos, error.c_str());
    QVERIFY2(error.find("Restore it from a backup") != std::string::npos, error.c_str());
    QCOMPARE(QFileInfo(path).size(), qint64(0)); // never replaced by a new database
}

void TestStoreIntegrity::corruptPagesAreRefusedAndKept()
{
    QTemporaryDir dir;
    fillStore(dir.path(), 400);
    const QString path = dir.filePath(QStringLiteral("relay.sqlite3"));
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal"))
            || QFileInfo(path + QStringLiteral("-wal")).size() == 0);
    {
        // Garbage over the b-tree page headers of every page after the first (the schema page).
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const qint64 pages = file.size() / kPageBytes;
        QVERIFY(pages > 4);
        for (qint64 page = 2; page < pages; ++page) {
            file.seek(page * kPageBytes);
            file.write(QByteArray(16, char(0x55)));
        }
    }
    const QByteArray before = digest(path);

    RelayEngine engine(optionsFor(dir.path()));
    const std::string error = engine.startupError();
    QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
    QVERIFY2(error.find("is damaged") != std::string::npos
                 || error.find("cannot be read") != std::string::npos,
             error.c_str());
    QCOMPARE(digest(path), before);
}

void TestStoreIntegrity::missingDirectoryIsAFreshStart()
{
    QTemporaryDir parent;
    const QString dir = parent.filePath(QStringLiteral("not/yet/there"));
    RelayEngine engine(optionsFor(dir));
    QVERIFY2(engine.startupError().empty(), engine.startupError().c_str());
    QVERIFY(QFile::exists(dir + QStringLiteral("/relay.sqlite3")));
}

void TestStoreIntegrity::healthyStoreReopens()
{
    QTemporaryDir dir;
    fillStore(dir.path(), 50);
    RelayEngine engine(optionsFor(dir.path()));
    QVERIFY2(engine.startupError().empty(), engine.startupError().c_str());
    const auto filters = nostr::Filter::listFromJson(R"([{"kinds":[1],"limit":100}])");
    QVERIFY(filters.hasValue());
    const auto result =
        engine.query(*filters, RequestContext {"local", std::string(64, 'a'), Transport::Http},
                     ReadPath::BridgeQuery);
    QCOMPARE(result.events.size(), std::size_t(50));
}

void TestStoreIntegrity::secondRelayOnTheSameDirectoryIsRefused()
{
    QTemporaryDir dir;
    auto first = std::make_unique<RelayEngine>(optionsFor(dir.path()));
    QVERIFY2(first->startupError().empty(), first->startupError().c_str());
    {
        RelayEngine second(optionsFor(dir.path()));
        const std::string error = second.startupError();
        QVERIFY2(error.find("data directory " + dir.path().toStdString()
                            + " is in use by another relay (pid "
                            + std::to_string(QCoreApplication::applicationPid()) + ")")
                     != std::string::npos,
                 error.c_str());
        QVERIFY2(error.find("Stop the other relay first") != std::string::npos, error.c_str());
    }
    // The first one was not disturbed, and once it stops the directory is free again.
    const auto key = nostr::SecretKey::generate();
    nostr::Event event;
    event.kind = 1;
    event.createdAt = kNow;
    event.content = "still mine";
    key.signEvent(event);
    QVERIFY(first->ingest(event, RequestContext {"local", key.publicKeyHex(), Transport::Http})
                .accepted());
    first.reset();
    RelayEngine third(optionsFor(dir.path()));
    QVERIFY2(third.startupError().empty(), third.startupError().c_str());
}

QTEST_GUILESS_MAIN(TestStoreIntegrity)
#include "test_store_integrity.moc"
