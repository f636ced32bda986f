#pragma once

#include "net/nostr/Expected.h"
#include "net/nostr/Keys.h"

#include <QObject>
#include <QString>

#include <qcoro/qcorotask.h>

#include <memory>

namespace buzz::client {
class Signer;
}

namespace buzz::canvas {

// The user's Nostr key. Where it comes from, in order:
//   1. the key handed to load() — the apps pass BUZZ_PRIVATE_KEY (hex or nsec); this library reads
//      no environment — overrides everything, never stored;
//   2. the system keychain (QtKeychain, service "buzz-canvas", account "identity"), when one runs;
//   3. `<dataDir>/identity.key` holding the nsec, mode 0600, written atomically (the desktop's
//      layout) — used where no keychain is available. A corrupt file is renamed
//      identity.key.bad.<unix time>, never overwritten silently.
// The secret is never logged. Call load() once at start; generate()/import() persist the key.
// The key itself lives in signer(), the process's one holder of it: hand that to RelayConnection
// so a new identity signs every later request and re-authenticates the open WebSocket.
class Identity : public QObject
{
    Q_OBJECT
public:
    enum class Source { None, Environment, Keychain, File, Explicit };
    Q_ENUM(Source)

    enum class KeychainUse { Try, Never }; // Never: file only (CLI, tests)

    explicit Identity(QString dataDir, KeychainUse keychain = KeychainUse::Try,
                      QObject *parent = nullptr);
    ~Identity() override;

    // Resolves the key as above; `environmentKey` is what the app read from BUZZ_PRIVATE_KEY
    // (empty: unset). True when a key is available afterwards.
    QCoro::Task<bool> load(QByteArray environmentKey = {});
    // Uses `hexOrNsec` for this process only (CLI --private-key). Error text from SecretKey::parse.
    Expected<void, QString> useExplicit(const QString &hexOrNsec);

    // Creates and persists a fresh key (replacing the stored one). False if it could not be stored
    // anywhere (the key is still used for this session).
    QCoro::Task<bool> generate();
    // Imports hex or nsec and persists it. Error: "invalid secret key: …" or a storage failure.
    QCoro::Task<Expected<void, QString>> import(QString hexOrNsec);

    client::Signer *signer() const { return m_signer; }
    bool hasKey() const;
    std::shared_ptr<const nostr::SecretKey> secretKey() const;
    QString publicKeyHex() const;
    QString npub() const;
    QString shortNpub() const; // "npub1abcde…wxyz"
    QString nsec() const; // for an explicit "export" action only

    Source source() const { return m_source; }
    QString sourceName() const; // "environment", "keychain", "file", "explicit", "none"
    // Human-readable place: "environment variable BUZZ_PRIVATE_KEY", "system keychain",
    // "/home/me/.local/share/buzz-canvas/identity.key".
    QString storageDescription() const;
    QString keyFilePath() const;
    QString lastError() const { return m_lastError; }

signals:
    void changed();

private:
    QCoro::Task<bool> persist(const nostr::SecretKey &key);
    bool writeKeyFile(const nostr::SecretKey &key);
    std::unique_ptr<nostr::SecretKey> readKeyFile();
    void adopt(nostr::SecretKey key, Source source);

    QString m_dataDir;
    KeychainUse m_keychain;
    client::Signer *m_signer;
    Source m_source = Source::None;
    QString m_lastError;
};

} // namespace buzz::canvas
