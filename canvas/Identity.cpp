#include "canvas/Identity.h"

#include "net/client/Signer.h"
#include "net/nostr/Nip19.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QSaveFile>

#ifdef BUZZ_HAVE_QTKEYCHAIN
#include "net/client/SignalWithin.h"

#include <qt6keychain/keychain.h>
#endif

Q_LOGGING_CATEGORY(lcIdentity, "buzz.canvas.identity")

namespace buzz::canvas {

namespace {

const QString kKeychainService = QStringLiteral("buzz-canvas");
const QString kKeychainAccount = QStringLiteral("identity");
constexpr std::chrono::milliseconds kKeychainTimeout {3000};

#ifdef BUZZ_HAVE_QTKEYCHAIN
// Runs a keychain job to completion (or timeout). Returns the job's error (NoError on success).
QCoro::Task<QKeychain::Error> runJob(QKeychain::Job *job)
{
    job->setAutoDelete(false);
    job->start();
    const bool finished =
        co_await client::signalWithin(job, &QKeychain::Job::finished, kKeychainTimeout);
    co_return finished ? job->error() : QKeychain::OtherError;
}
#endif

} // namespace

Identity::Identity(QString dataDir, KeychainUse keychain, QObject *parent)
    : QObject(parent)
    , m_dataDir(std::move(dataDir))
    , m_keychain(keychain)
    , m_signer(new client::Signer(this))
{
#ifndef BUZZ_HAVE_QTKEYCHAIN
    m_keychain = KeychainUse::Never;
#endif
}

Identity::~Identity() = default;

QString Identity::keyFilePath() const
{
    return QDir(m_dataDir).filePath(QStringLiteral("identity.key"));
}

void Identity::adopt(nostr::SecretKey key, Source source)
{
    m_source = source;
    m_signer->setKey(std::make_shared<const nostr::SecretKey>(std::move(key)));
    emit changed();
}

bool Identity::hasKey() const
{
    return m_signer->hasKey();
}

std::shared_ptr<const nostr::SecretKey> Identity::secretKey() const
{
    return m_signer->key();
}

Expected<void, QString> Identity::useExplicit(const QString &hexOrNsec)
{
    auto key = nostr::SecretKey::parse(hexOrNsec.trimmed().toStdString());
    if (!key)
        return Unexpected(QString::fromStdString(key.error()));
    adopt(std::move(key).value(), Source::Explicit);
    return {};
}

QCoro::Task<bool> Identity::load(QByteArray environmentKey)
{
    const QByteArray fromEnv = environmentKey.trimmed();
    if (!fromEnv.isEmpty()) {
        auto key = nostr::SecretKey::parse(fromEnv.toStdString());
        if (key) {
            adopt(std::move(key).value(), Source::Environment);
            co_return true;
        }
        m_lastError = QStringLiteral("BUZZ_PRIVATE_KEY: ") + QString::fromStdString(key.error());
        qCWarning(lcIdentity) << "ignoring BUZZ_PRIVATE_KEY:"
                              << QString::fromStdString(key.error());
    }
#ifdef BUZZ_HAVE_QTKEYCHAIN
    if (m_keychain == KeychainUse::Try) {
        auto *job = new QKeychain::ReadPasswordJob(kKeychainService, this);
        job->setKey(kKeychainAccount);
        const QKeychain::Error error = co_await runJob(job);
        const QString stored = job->textData();
        job->deleteLater();
        if (error == QKeychain::NoError) {
            auto key = nostr::SecretKey::parse(stored.trimmed().toStdString());
            if (key) {
                adopt(std::move(key).value(), Source::Keychain);
                co_return true;
            }
            qCWarning(lcIdentity)
                << "keychain entry is not a valid key; falling back to the key file";
        }
    }
#endif
    if (auto key = readKeyFile()) {
        adopt(std::move(*key), Source::File);
        co_return true;
    }
    co_return false;
}

std::unique_ptr<nostr::SecretKey> Identity::readKeyFile()
{
    QFile file(keyFilePath());
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return nullptr;
    const QByteArray text = file.readAll().trimmed();
    file.close();
    auto key = nostr::SecretKey::parse(text.toStdString());
    if (!key) {
        // Keep the bytes for the user to inspect; never overwrite them.
        const QString aside = keyFilePath() + QStringLiteral(".bad.")
            + QString::number(QDateTime::currentSecsSinceEpoch());
        QFile::rename(keyFilePath(), aside);
        m_lastError = QStringLiteral("identity.key was not a valid key; moved aside to ") + aside;
        qCWarning(lcIdentity) << "corrupt identity.key moved aside";
        return nullptr;
    }
    return std::make_unique<nostr::SecretKey>(std::move(key).value());
}

bool Identity::writeKeyFile(const nostr::SecretKey &key)
{
    if (!QDir().mkpath(m_dataDir)) {
        m_lastError = QStringLiteral("cannot create ") + m_dataDir;
        return false;
    }
    QSaveFile file(keyFilePath());
    if (!file.open(QIODevice::WriteOnly)) {
        m_lastError = file.errorString();
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QByteArray::fromStdString(key.toNsec()));
    file.write("\n");
    if (!file.commit()) {
        m_lastError = file.errorString();
        return false;
    }
    QFile::setPermissions(keyFilePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

QCoro::Task<bool> Identity::persist(const nostr::SecretKey &key)
{
#ifdef BUZZ_HAVE_QTKEYCHAIN
    if (m_keychain == KeychainUse::Try) {
        auto *job = new QKeychain::WritePasswordJob(kKeychainService, this);
        job->setKey(kKeychainAccount);
        job->setTextData(QString::fromStdString(key.toNsec()));
        const QKeychain::Error error = co_await runJob(job);
        job->deleteLater();
        if (error == QKeychain::NoError) {
            // A stale file would shadow nothing (keychain is read first) but would leak an old key.
            QFile::remove(keyFilePath());
            m_source = Source::Keychain;
            co_return true;
        }
        qCInfo(lcIdentity) << "no usable keychain; storing the key in" << keyFilePath();
    }
#endif
    if (writeKeyFile(key)) {
        m_source = Source::File;
        co_return true;
    }
    co_return false;
}

QCoro::Task<bool> Identity::generate()
{
    nostr::SecretKey key = nostr::SecretKey::generate();
    const bool stored = co_await persist(key);
    const Source source = stored ? m_source : Source::Explicit;
    adopt(std::move(key), source);
    co_return stored;
}

QCoro::Task<Expected<void, QString>> Identity::import(QString hexOrNsec)
{
    auto key = nostr::SecretKey::parse(hexOrNsec.trimmed().toStdString());
    if (!key)
        co_return Unexpected(QString::fromStdString(key.error()));
    if (!co_await persist(*key))
        co_return Unexpected(QStringLiteral("could not store the key: ") + m_lastError);
    const Source source = m_source;
    adopt(std::move(key).value(), source);
    co_return Expected<void, QString>();
}

QString Identity::publicKeyHex() const
{
    return m_signer->publicKeyHex();
}

QString Identity::npub() const
{
    const auto key = m_signer->key();
    return key ? QString::fromStdString(nostr::nip19::encodeNpub(key->publicKeyHex())) : QString();
}

QString Identity::shortNpub() const
{
    const auto key = m_signer->key();
    return key ? QString::fromStdString(nostr::nip19::shortNpub(key->publicKeyHex())) : QString();
}

QString Identity::nsec() const
{
    const auto key = m_signer->key();
    return key ? QString::fromStdString(key->toNsec()) : QString();
}

QString Identity::sourceName() const
{
    switch (m_source) {
    case Source::None:
        return QStringLiteral("none");
    case Source::Environment:
        return QStringLiteral("environment");
    case Source::Keychain:
        return QStringLiteral("keychain");
    case Source::File:
        return QStringLiteral("file");
    case Source::Explicit:
        return QStringLiteral("explicit");
    }
    return QStringLiteral("none");
}

QString Identity::storageDescription() const
{
    switch (m_source) {
    case Source::Environment:
        return QStringLiteral("environment variable BUZZ_PRIVATE_KEY");
    case Source::Keychain:
        return QStringLiteral("system keychain");
    case Source::File:
        return keyFilePath();
    case Source::Explicit:
        return QStringLiteral("command line (not stored)");
    case Source::None:
        break;
    }
    return QStringLiteral("not set");
}

} // namespace buzz::canvas
