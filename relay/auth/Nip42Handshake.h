#pragma once

#include "net/nostr/Event.h"
#include "relay/auth/RelayMembership.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::relay {

// The NIP-42 state of one WebSocket connection (docs/buzz-protocol.md §NIP-42). The relay sends
// ["AUTH", challenge()] first; a failed connection stays failed until the client reconnects.
class Nip42Handshake
{
public:
    enum class State { Pending, Authenticated, Failed };

    Nip42Handshake(); // draws a fresh 32-byte challenge

    const std::string &challenge() const { return m_challenge; }
    State state() const { return m_state; }
    bool isAuthenticated() const { return m_state == State::Authenticated; }
    const std::string &pubkey() const { return m_pubkey; }

    struct Reply
    {
        bool accepted = false;
        std::string message; // the OK message: "", "auth-required: …" or "restricted: …"
        std::string detail; // why verification failed (logs and tests only; never sent)
    };
    // `membership` is consulted only after the event verified (the gate follows the crypto).
    Reply handleAuth(const nostr::Event &event, std::string_view relayUrl, std::int64_t now,
                     const RelayMembership *membership = nullptr);

private:
    std::string m_challenge;
    State m_state = State::Pending;
    std::string m_pubkey;
};

} // namespace buzz::relay
