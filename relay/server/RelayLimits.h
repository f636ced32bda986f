#pragma once

#include "relay/server/RelayServer.h"

#include <string>
#include <vector>

namespace buzz::relay {

// Every bound a client of this relay can run into, with the value in effect and what the client
// sees. Built from the constants and options that enforce them, so `buzz-mock-relay --help`
// (and the test that holds the man page and relay/README.md to it) can never drift from the code.
struct RelayLimit
{
    std::string what; // e.g. "HTTP request head (request line + headers)"
    std::string value; // e.g. "16 KiB"
    std::string answer; // e.g. "431, connection closed"
    std::string option; // the flag that changes it, or empty
};

std::vector<RelayLimit> relayLimits(const RelayServer::Options &options = {});

// Human-readable sizes and durations, as relay/README.md writes them ("16 KiB", "1 MiB", "30 s").
std::string formatBytes(std::size_t bytes);
std::string formatMilliseconds(std::int64_t ms);

} // namespace buzz::relay
