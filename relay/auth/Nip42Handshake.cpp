#include "relay/auth/Nip42Handshake.h"

#include "net/nostr/Hex.h"
#include "net/nostr/Nip42.h"

#include <QRandomGenerator>

#include <array>

namespace buzz::relay {

Nip42Handshake::Nip42Handshake()
{
    std::array<quint32, 8> words {};
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    m_challenge = nostr::toHex(reinterpret_cast<const std::uint8_t *>(words.data()), 32);
}

Nip42Handshake::Reply Nip42Handshake::handleAuth(const nostr::Event &event,
                                                 std::string_view relayUrl, std::int64_t now,
                                                 const RelayMembership *membership)
{
    switch (m_state) {
    case State::Authenticated:
        return {false, "auth-required: already authenticated", {}};
    case State::Failed:
        return {false, "auth-required: authentication already failed", {}};
    case State::Pending:
        break;
    }
    if (auto failure = nostr::nip42::verifyAuthEvent(event, m_challenge, relayUrl, now)) {
        m_state = State::Failed;
        return {false, "auth-required: verification failed", *failure};
    }
    if (membership && !membership->admits(event.pubkey)) {
        m_state = State::Failed;
        return {false, std::string(RelayMembership::kWsRefusal), "pubkey is not a relay member"};
    }
    m_state = State::Authenticated;
    m_pubkey = event.pubkey;
    return {true, "", {}};
}

} // namespace buzz::relay
