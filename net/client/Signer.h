#pragma once

#include "net/nostr/Keys.h"

#include <QObject>
#include <QString>

#include <memory>

namespace buzz::client {

// The one holder of the user's secret key in a process. Identity stores the key here; the HTTP
// bridge (NIP-98), the WebSocket (NIP-42) and the services that sign events read it here at the
// moment they sign, so a new identity takes effect everywhere at once and no copy goes stale.
class Signer : public QObject
{
    Q_OBJECT
public:
    explicit Signer(QObject *parent = nullptr);
    ~Signer() override;

    // Emits keyChanged when the public key differs from the previous one (nullptr clears).
    void setKey(std::shared_ptr<const nostr::SecretKey> key);
    // The key to sign with right now; hold the pointer only for the duration of one signing.
    std::shared_ptr<const nostr::SecretKey> key() const { return m_key; }
    bool hasKey() const { return m_key != nullptr; }
    QString publicKeyHex() const; // empty without a key

signals:
    // The key is about to change (key() is still the old one): the last chance to sign with it,
    // e.g. presence "offline" for the identity being signed out.
    void keyAboutToChange();
    void keyChanged();

private:
    std::shared_ptr<const nostr::SecretKey> m_key;
};

} // namespace buzz::client
