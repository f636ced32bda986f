#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"

#include <cstdint>
#include <string>
#include <vector>

namespace buzz::relay::bench {

// A lean WebSocket load generator for relay_bench. It shares the machine's two cores with the relay
// it measures, so it costs as little as it can: every EVENT frame is serialised, masked and framed
// before the clock starts, the socket is a blocking POSIX socket driven by its own thread (no event
// loop polling every descriptor per OK), and an OK is recognised by its bytes, not parsed. It
// speaks just enough RFC 6455 for the relay: one upgrade, text frames, pings, NIP-42 AUTH.
class WsLoadClient
{
public:
    explicit WsLoadClient(std::uint16_t port);
    ~WsLoadClient();
    WsLoadClient(const WsLoadClient &) = delete;
    WsLoadClient &operator=(const WsLoadClient &) = delete;

    // Upgrades, answers the AUTH challenge with a kind-22242 event for `relayUrl`, waits for OK.
    bool connectAndAuthenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                std::int64_t now, int timeoutMs = 5000);
    // Frames every event now (outside any measurement); run() then only moves bytes.
    void prepare(const std::vector<nostr::Event> &events);
    // Keeps `window` events in flight until every prepared event has its OK (or the connection
    // fails or `timeoutMs` passes). Blocking: run one client per thread.
    void run(int window, int timeoutMs);

    int acknowledged() const { return m_acked; }
    int rejected() const { return m_rejected; }
    bool failed() const { return m_failed; }

private:
    bool sendAll(const std::string &bytes);
    // Reads once (blocking up to the socket timeout) and handles every complete frame.
    bool readSome();
    void onText(std::string_view payload);
    static std::string maskedFrame(int opcode, std::string_view payload);

    std::uint16_t m_port;
    int m_fd = -1;
    std::string m_buffer;
    std::string m_outgoing; // frames to send after this read
    bool m_failed = false;
    std::string m_challenge;
    std::string m_authId;
    bool m_authOk = false;
    bool m_running = false;
    std::vector<std::string> m_frames;
    std::size_t m_next = 0;
    int m_acked = 0;
    int m_rejected = 0;
};

} // namespace buzz::relay::bench
