#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::relay {

// Limits every HTTP connection is held to before QHttpServer sees a byte of its request.
// QHttpServer 6.4 reads a request's whole body into memory before a handler can look at its
// headers, and has no timeouts: these bounds are what keeps a careless or hostile client from
// growing the relay or holding its file descriptors.
struct HttpLimits
{
    std::size_t maxHeadBytes = 16 * 1024; // request line + headers; more ⇒ 431
    // docs/buzz-protocol.md §Bridge limits; more ⇒ 413 from the headers alone
    std::size_t maxBodyBytes = 1024 * 1024;
    int headTimeoutMs = 10000; // first byte of a request head → its end; else 408
    int bodyTimeoutMs = 30000; // end of the head → end of the body; else 408
    int idleTimeoutMs = 30000; // no request in progress and nothing sent; closed silently
};

// Follows the byte stream of one HTTP/1.1 connection (pipelined requests included) and decides,
// from each request head alone, whether the request may reach QHttpServer. Pure: the socket side
// is HttpConnectionGuard. Bytes are fed exactly once, in order.
class HttpRequestGuard
{
public:
    struct Head
    {
        std::string method;
        std::string target;
        std::string version; // HTTP/1.1 or HTTP/1.0
        std::string host; // raw Host header value
        bool upgradeHeaderIsWebSocket = false; // an Upgrade header lists `websocket`
        bool upgradeIsWebSocketAlone = false; // …and names nothing else, in one header
        bool connectionUpgrade = false; // Connection lists the `upgrade` token
        std::string webSocketKey; // Sec-WebSocket-Key
        std::string webSocketVersion; // Sec-WebSocket-Version
        bool chunked = false;
        std::uint64_t contentLength = 0;
        std::size_t headBytes = 0; // request line, headers and the blank line
        bool endsWithCrlf = false; // the head ends with CR LF CR LF
    };

    enum class Phase { Idle, Head, Body, Upgraded, Rejected };

    struct Verdict
    {
        enum class Kind {
            Continue, // nothing to do (yet)
            Reject, // answer `status` with `body`, then close the connection
            // A WebSocket handshake ended (GET /, a valid key, version 13, no body): the
            // connection leaves HTTP. Any other request asking for an upgrade is an ordinary
            // request, or refused when it names WebSocket.
            Upgrade,
        };
        Kind kind = Kind::Continue;
        int status = 0;
        std::string body;
    };

    explicit HttpRequestGuard(HttpLimits limits = {});

    // Takes the next bytes of the stream. A Reject or Upgrade is final: later calls return it
    // again without looking at their bytes.
    Verdict feed(std::string_view bytes);

    Phase phase() const { return m_phase; }
    // The head that ended last (valid once a head was accepted).
    const Head &lastHead() const { return m_head; }
    // Requests whose body was fully received (or that had none).
    std::uint64_t completedRequests() const { return m_completed; }

    // Status texts for the answers the guard and its socket side give.
    static const char *reasonPhrase(int status);

private:
    Verdict reject(int status, std::string body);
    Verdict parseHead(std::string_view head);
    Verdict finishHead();
    Verdict checkWebSocketHandshake();
    std::size_t feedBody(std::string_view bytes, Verdict &verdict);
    std::size_t feedChunked(std::string_view bytes, Verdict &verdict);
    void finishRequest();

    enum class ChunkState { Size, Data, DataEnd, Trailer };

    HttpLimits m_limits;
    Phase m_phase = Phase::Idle;
    Verdict m_final;
    std::string m_headBuffer;
    Head m_head;
    std::uint64_t m_bodyRemaining = 0;
    std::uint64_t m_bodyReceived = 0;
    ChunkState m_chunkState = ChunkState::Size;
    std::string m_line; // chunk-size or trailer line being read
    std::size_t m_trailerBytes = 0;
    std::uint64_t m_completed = 0;
};

} // namespace buzz::relay
