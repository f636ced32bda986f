#pragma once

// One direction of a WebSocket byte stream cut into whole frames (RFC 6455 §5.2), so the test
// proxy can read the Nostr messages it tunnels and insert its own between them.

#include <QByteArray>

#include <optional>

namespace buzz::test {

class WsFrameReader
{
public:
    struct Frame
    {
        QByteArray raw; // the frame's bytes exactly as received
        bool fin = true;
        int opcode = 0; // 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong
        QByteArray payload; // unmasked
    };

    void append(const QByteArray &bytes) { m_buffer += bytes; }
    // The next complete frame, or nullopt until more bytes arrive.
    std::optional<Frame> next();

    // A single-frame text message; client-to-server frames must be masked (RFC 6455 §5.3).
    static QByteArray textFrame(const QByteArray &payload, bool masked);

private:
    QByteArray m_buffer;
};

} // namespace buzz::test
