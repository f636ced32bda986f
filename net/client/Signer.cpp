#include "net/client/Signer.h"

namespace buzz::client {

Signer::Signer(QObject *parent)
    : QObject(parent)
{ }

Signer::~Signer() = default;

void Signer::setKey(std::shared_ptr<const nostr::SecretKey> key)
{
    const QString before = publicKeyHex();
    if (before != (key ? QString::fromStdString(key->publicKeyHex()) : QString()))
        emit keyAboutToChange();
    m_key = std::move(key);
    if (publicKeyHex() != before)
        emit keyChanged();
}

QString Signer::publicKeyHex() const
{
    return m_key ? QString::fromStdString(m_key->publicKeyHex()) : QString();
}

} // namespace buzz::client
