#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Expected.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::nostr {

// A secp256k1 secret key. The bytes are wiped (secure zero) when the object is destroyed or
// moved from; copies are deliberate (clone()).
class SecretKey
{
public:
    SecretKey(SecretKey &&other) noexcept;
    SecretKey &operator=(SecretKey &&other) noexcept;
    SecretKey(const SecretKey &) = delete;
    SecretKey &operator=(const SecretKey &) = delete;
    ~SecretKey();

    // Fresh key from the OS random source (getrandom); retries until the scalar is valid.
    static SecretKey generate();
    // 64 hex characters (either case) or "nsec1…". Errors: "invalid secret key: …".
    static Expected<SecretKey> parse(std::string_view hexOrNsec);

    SecretKey clone() const;

    std::string toHex() const;
    std::string toNsec() const;
    const std::string &publicKeyHex() const { return m_publicKeyHex; } // x-only, lower-case

    // BIP-340 signature (128 lower-case hex) over `message` with fresh auxiliary randomness.
    std::string sign(std::string_view message) const;
    // Deterministic variant for test vectors: explicit 32-byte aux randomness.
    std::string signWithAux(std::string_view message,
                            const std::array<std::uint8_t, 32> &aux) const;

    // Fills pubkey, id and sig of `event` (created_at, kind, tags and content are the caller's).
    void signEvent(Event &event) const;
    // Builds and signs an event in one step: the one way code here makes a new signed event.
    Event signedEvent(int kind, std::int64_t createdAt, Tags tags = {},
                      std::string content = {}) const;

private:
    SecretKey() = default;
    void derivePublicKey();

    std::array<std::uint8_t, 32> m_secret {};
    // secp256k1_keypair, cached so signing costs one scalar multiplication, not two.
    std::array<std::uint8_t, 96> m_keypair {};
    std::string m_publicKeyHex;
};

// BIP-340 verification of `signatureHex` (128 hex) over `message` by x-only `publicKeyHex` (64
// hex).
bool verifySchnorr(std::string_view publicKeyHex, std::string_view message,
                   std::string_view signatureHex);
// Same with raw bytes (hot path: no hex decoding).
bool verifySchnorrRaw(const std::uint8_t publicKey32[32], const std::uint8_t *message,
                      std::size_t messageSize, const std::uint8_t signature64[64]);

} // namespace buzz::nostr
