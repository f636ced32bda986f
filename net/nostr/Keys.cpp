#include "net/nostr/Keys.h"

#include "net/nostr/Hex.h"
#include "net/nostr/Nip19.h"
#include "net/nostr/Sha256.h"

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <sys/random.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string.h> // explicit_bzero

namespace buzz::nostr {

static_assert(sizeof(secp256k1_keypair) == 96, "m_keypair must hold a secp256k1_keypair");

namespace {

void fillRandom(std::uint8_t *out, std::size_t size)
{
    std::size_t filled = 0;
    while (filled < size) {
        const ssize_t got = getrandom(out + filled, size - filled, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            // Without OS randomness no key or signature can be made safely.
            std::abort();
        }
        filled += static_cast<std::size_t>(got);
    }
}

// One context for the whole process, randomized once (side-channel blinding) and never modified
// afterwards, so concurrent sign/verify calls are safe.
const secp256k1_context *context()
{
    static const secp256k1_context *const shared = [] {
        secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
        std::uint8_t seed[32];
        fillRandom(seed, sizeof seed);
        if (!secp256k1_context_randomize(ctx, seed))
            std::abort();
        explicit_bzero(seed, sizeof seed);
        return ctx;
    }();
    return shared;
}

const secp256k1_keypair *asKeypair(const std::array<std::uint8_t, 96> &storage)
{
    return reinterpret_cast<const secp256k1_keypair *>(storage.data());
}

secp256k1_keypair *asKeypair(std::array<std::uint8_t, 96> &storage)
{
    return reinterpret_cast<secp256k1_keypair *>(storage.data());
}

} // namespace

SecretKey::SecretKey(SecretKey &&other) noexcept
    : m_secret(other.m_secret)
    , m_keypair(other.m_keypair)
    , m_publicKeyHex(std::move(other.m_publicKeyHex))
{
    explicit_bzero(other.m_secret.data(), other.m_secret.size());
    explicit_bzero(other.m_keypair.data(), other.m_keypair.size());
}

SecretKey &SecretKey::operator=(SecretKey &&other) noexcept
{
    if (this != &other) {
        m_secret = other.m_secret;
        m_keypair = other.m_keypair;
        m_publicKeyHex = std::move(other.m_publicKeyHex);
        explicit_bzero(other.m_secret.data(), other.m_secret.size());
        explicit_bzero(other.m_keypair.data(), other.m_keypair.size());
    }
    return *this;
}

SecretKey::~SecretKey()
{
    explicit_bzero(m_secret.data(), m_secret.size());
    explicit_bzero(m_keypair.data(), m_keypair.size());
}

SecretKey SecretKey::generate()
{
    SecretKey key;
    do {
        fillRandom(key.m_secret.data(), key.m_secret.size());
    } while (!secp256k1_ec_seckey_verify(context(), key.m_secret.data()));
    key.derivePublicKey();
    return key;
}

Expected<SecretKey> SecretKey::parse(std::string_view hexOrNsec)
{
    SecretKey key;
    if (hexOrNsec.size() == 64) {
        if (!fromHex(hexOrNsec, key.m_secret.data(), key.m_secret.size()))
            return Unexpected(std::string("invalid secret key: not 64 hex characters"));
    } else if (hexOrNsec.starts_with("nsec1")) {
        Expected<std::string> hex = nip19::decodeNsec(hexOrNsec);
        if (!hex)
            return Unexpected("invalid secret key: " + hex.error());
        fromHex(hex.value(), key.m_secret.data(), key.m_secret.size());
        explicit_bzero(hex.value().data(), hex.value().size());
    } else {
        return Unexpected(std::string("invalid secret key: expected 64 hex characters or nsec1…"));
    }
    if (!secp256k1_ec_seckey_verify(context(), key.m_secret.data()))
        return Unexpected(std::string("invalid secret key: out of range for secp256k1"));
    key.derivePublicKey();
    return key;
}

SecretKey SecretKey::clone() const
{
    SecretKey copy;
    copy.m_secret = m_secret;
    copy.m_keypair = m_keypair;
    copy.m_publicKeyHex = m_publicKeyHex;
    return copy;
}

std::string SecretKey::toHex() const
{
    return nostr::toHex(m_secret.data(), m_secret.size());
}

std::string SecretKey::toNsec() const
{
    std::string hex = toHex();
    std::string nsec = nip19::encodeNsec(hex);
    explicit_bzero(hex.data(), hex.size());
    return nsec;
}

void SecretKey::derivePublicKey()
{
    if (!secp256k1_keypair_create(context(), asKeypair(m_keypair), m_secret.data()))
        std::abort(); // callers verified the scalar first
    secp256k1_xonly_pubkey publicKey;
    std::uint8_t serialized[32];
    if (!secp256k1_keypair_xonly_pub(context(), &publicKey, nullptr, asKeypair(m_keypair))
        || !secp256k1_xonly_pubkey_serialize(context(), serialized, &publicKey))
        std::abort();
    m_publicKeyHex = nostr::toHex(serialized, sizeof serialized);
}

std::string SecretKey::sign(std::string_view message) const
{
    std::array<std::uint8_t, 32> aux;
    fillRandom(aux.data(), aux.size());
    return signWithAux(message, aux);
}

std::string SecretKey::signWithAux(std::string_view message,
                                   const std::array<std::uint8_t, 32> &aux) const
{
    secp256k1_schnorrsig_extraparams params = SECP256K1_SCHNORRSIG_EXTRAPARAMS_INIT;
    params.ndata = const_cast<std::uint8_t *>(aux.data());
    std::uint8_t signature[64];
    if (!secp256k1_schnorrsig_sign_custom(context(), signature,
                                          reinterpret_cast<const unsigned char *>(message.data()),
                                          message.size(), asKeypair(m_keypair), &params))
        std::abort(); // only fails for an invalid keypair, which construction rules out
    return nostr::toHex(signature, sizeof signature);
}

void SecretKey::signEvent(Event &event) const
{
    event.pubkey = m_publicKeyHex;
    const Sha256Digest digest = sha256(event.canonical());
    event.id = nostr::toHex(digest.data(), digest.size());
    event.sig =
        sign(std::string_view(reinterpret_cast<const char *>(digest.data()), digest.size()));
}

Event SecretKey::signedEvent(int kind, std::int64_t createdAt, Tags tags, std::string content) const
{
    Event event;
    event.kind = kind;
    event.createdAt = createdAt;
    event.tags = std::move(tags);
    event.content = std::move(content);
    signEvent(event);
    return event;
}

bool verifySchnorr(std::string_view publicKeyHex, std::string_view message,
                   std::string_view signatureHex)
{
    std::uint8_t publicKey[32];
    std::uint8_t signature[64];
    if (!fromHex(publicKeyHex, publicKey, sizeof publicKey)
        || !fromHex(signatureHex, signature, sizeof signature))
        return false;
    return verifySchnorrRaw(publicKey, reinterpret_cast<const std::uint8_t *>(message.data()),
                            message.size(), signature);
}

namespace {

// Parsing an x-only key costs a field square root, about a sixth of a verification. Authors
// repeat (a channel has few writers), so each thread keeps recently parsed keys. Direct-mapped:
// a collision just parses again.
class ParsedKeyCache
{
public:
    const secp256k1_xonly_pubkey *find(const std::uint8_t key[32])
    {
        Entry &entry = m_entries[slot(key)];
        if (entry.used && std::memcmp(entry.key.data(), key, 32) == 0)
            return &entry.parsed;
        if (!secp256k1_xonly_pubkey_parse(context(), &entry.parsed, key)) {
            entry.used = false;
            return nullptr;
        }
        std::memcpy(entry.key.data(), key, 32);
        entry.used = true;
        return &entry.parsed;
    }

private:
    static constexpr std::size_t kSlots = 256;
    struct Entry
    {
        std::array<std::uint8_t, 32> key {};
        secp256k1_xonly_pubkey parsed {};
        bool used = false;
    };
    // Public keys are uniformly distributed, so two bytes index well enough.
    static std::size_t slot(const std::uint8_t key[32])
    {
        return (key[0] ^ (key[31] << 1)) % kSlots;
    }

    std::array<Entry, kSlots> m_entries {};
};

} // namespace

bool verifySchnorrRaw(const std::uint8_t publicKey32[32], const std::uint8_t *message,
                      std::size_t messageSize, const std::uint8_t signature64[64])
{
    thread_local ParsedKeyCache cache;
    const secp256k1_xonly_pubkey *publicKey = cache.find(publicKey32);
    if (!publicKey)
        return false;
    return secp256k1_schnorrsig_verify(context(), signature64, message, messageSize, publicKey)
        == 1;
}

} // namespace buzz::nostr
