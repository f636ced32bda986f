#include "net/nostr/Sha256.h"

#include "net/nostr/Hex.h"

#include <QByteArrayView>
#include <QCryptographicHash>

#include <cstring>

namespace buzz::nostr {

Sha256Digest sha256(std::string_view data)
{
    // One hasher per thread, reset between uses: constructing QCryptographicHash allocates.
    thread_local QCryptographicHash hasher(QCryptographicHash::Sha256);
    hasher.reset();
    hasher.addData(QByteArrayView(data.data(), static_cast<qsizetype>(data.size())));
    const QByteArrayView result = hasher.resultView();
    Sha256Digest digest;
    std::memcpy(digest.data(), result.data(), digest.size());
    return digest;
}

std::string sha256Hex(std::string_view data)
{
    const Sha256Digest digest = sha256(data);
    return toHex(digest.data(), digest.size());
}

} // namespace buzz::nostr
