#pragma once

#include <string>

namespace buzz::relay {

enum class Transport { WebSocket, Http };

// Who is asking, after auth and Host → community resolution.
struct RequestContext
{
    std::string community; // resolved from the normalised Host header
    std::string pubkey; // authenticated pubkey, 64 lower-case hex
    Transport transport = Transport::Http;
};

} // namespace buzz::relay
