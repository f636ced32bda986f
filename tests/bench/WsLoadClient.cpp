#include "WsLoadClient.h"

#include "net/nostr/Nip42.h"

#include <QByteArray>
#include <QRandomGenerator>

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace buzz::relay::bench {

namespace {
constexpr int kOpText = 0x1;
constexpr int kOpClose = 0x8;
constexpr int kOpPing = 0x9;
constexpr int kOpPong = 0xA;
constexpr std::string_view kOkPrefix = "[\"OK\",\"";

void setReceiveTimeout(int fd, int timeoutMs)
{
    timeval timeout {timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}
} // namespace

WsLoadClient::WsLoadClient(std::uint16_t port)
    : m_port(port)
{ }

WsLoadClient::~WsLoadClient()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool WsLoadClient::connectAndAuthenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                          std::int64_t now, int timeoutMs)
{
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (m_fd < 0)
        return false;
    const int one = 1;
    setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setReceiveTimeout(m_fd, timeoutMs);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(m_port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
        return false;
    QByteArray nonce(16, Qt::Uninitialized);
    for (auto &byte : nonce)
        byte = char(QRandomGenerator::global()->bounded(256));
    if (!sendAll("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(m_port)
                 + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                 + nonce.toBase64().toStdString() + "\r\nSec-WebSocket-Version: 13\r\n\r\n"))
        return false;
    // The 101 response, then frames; readSome() handles both.
    while (m_challenge.empty() && !m_failed)
        m_failed = !readSome();
    if (m_failed)
        return false;
    const auto auth = nostr::nip42::buildAuthEvent(key, relayUrl, m_challenge, now);
    m_authId = auth.id;
    if (!sendAll(maskedFrame(kOpText, "[\"AUTH\"," + auth.toJson() + "]")))
        return false;
    while (!m_authOk && !m_failed)
        m_failed = !readSome();
    return !m_failed;
}

void WsLoadClient::prepare(const std::vector<nostr::Event> &events)
{
    m_frames.clear();
    m_frames.reserve(events.size());
    for (const auto &event : events)
        m_frames.push_back(maskedFrame(kOpText, "[\"EVENT\"," + event.toJson() + "]"));
    m_next = 0;
}

void WsLoadClient::run(int window, int timeoutMs)
{
    m_running = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    std::string first;
    for (; m_next < m_frames.size() && int(m_next) < window; ++m_next)
        first += m_frames[m_next];
    if (!sendAll(first)) {
        m_failed = true;
        return;
    }
    while (m_acked < int(m_frames.size()) && !m_failed
           && std::chrono::steady_clock::now() < deadline) {
        if (!readSome()) {
            m_failed = true;
            return;
        }
        if (!m_outgoing.empty()) {
            if (!sendAll(m_outgoing))
                m_failed = true;
            m_outgoing.clear();
        }
    }
}

bool WsLoadClient::sendAll(const std::string &bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t written =
            ::send(m_fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (written <= 0)
            return false;
        done += std::size_t(written);
    }
    return true;
}

std::string WsLoadClient::maskedFrame(int opcode, std::string_view payload)
{
    std::string frame;
    frame.reserve(payload.size() + 14);
    frame.push_back(char(0x80 | opcode));
    const std::size_t size = payload.size();
    if (size < 126) {
        frame.push_back(char(0x80 | size));
    } else if (size < 65536) {
        frame.push_back(char(0x80 | 126));
        frame.push_back(char(size >> 8));
        frame.push_back(char(size & 0xff));
    } else {
        frame.push_back(char(0x80 | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            frame.push_back(char((std::uint64_t(size) >> shift) & 0xff));
    }
    const std::uint32_t mask = QRandomGenerator::global()->generate();
    const char maskBytes[4] = {char(mask >> 24), char(mask >> 16), char(mask >> 8), char(mask)};
    frame.append(maskBytes, 4);
    const std::size_t start = frame.size();
    frame.append(payload);
    for (std::size_t i = 0; i < size; ++i)
        frame[start + i] ^= maskBytes[i & 3];
    return frame;
}

bool WsLoadClient::readSome()
{
    char chunk[65536];
    const ssize_t received = ::recv(m_fd, chunk, sizeof chunk, 0);
    if (received <= 0)
        return false; // closed, or nothing within the receive timeout
    m_buffer.append(chunk, std::size_t(received));
    std::size_t offset = 0;
    if (!m_challenge.size() && !m_running && m_buffer.rfind("HTTP/1.1 ", 0) == 0) {
        const std::size_t end = m_buffer.find("\r\n\r\n");
        if (end == std::string::npos)
            return true;
        if (m_buffer.rfind("HTTP/1.1 101", 0) != 0)
            return false;
        offset = end + 4;
    }
    while (m_buffer.size() - offset >= 2) {
        const auto *bytes = reinterpret_cast<const unsigned char *>(m_buffer.data() + offset);
        const std::size_t available = m_buffer.size() - offset;
        const int opcode = bytes[0] & 0x0f;
        std::uint64_t size = bytes[1] & 0x7f;
        std::size_t header = 2;
        if (size == 126) {
            if (available < 4)
                break;
            size = (std::uint64_t(bytes[2]) << 8) | bytes[3];
            header = 4;
        } else if (size == 127) {
            if (available < 10)
                break;
            size = 0;
            for (int i = 0; i < 8; ++i)
                size = (size << 8) | bytes[2 + i];
            header = 10;
        }
        if (available - header < size)
            break;
        const std::string_view payload(m_buffer.data() + offset + header, std::size_t(size));
        if (opcode == kOpText)
            onText(payload);
        else if (opcode == kOpPing)
            m_outgoing += maskedFrame(kOpPong, payload);
        else if (opcode == kOpClose)
            m_failed = true;
        offset += header + std::size_t(size);
    }
    m_buffer.erase(0, offset); // once per read, not once per frame
    if (!m_running && !m_outgoing.empty()) {
        sendAll(m_outgoing);
        m_outgoing.clear();
    }
    return !m_failed;
}

void WsLoadClient::onText(std::string_view payload)
{
    // ["OK","<64 hex>",true,...]: the verdict sits at a fixed offset.
    if (payload.substr(0, kOkPrefix.size()) == kOkPrefix) {
        const bool accepted = payload.substr(kOkPrefix.size() + 64, 6) == "\",true";
        if (!m_running) {
            if (payload.substr(kOkPrefix.size(), 64) == m_authId)
                m_authOk = accepted;
            return;
        }
        ++m_acked;
        if (!accepted)
            ++m_rejected;
        if (m_next < m_frames.size())
            m_outgoing += m_frames[m_next++];
        return;
    }
    if (payload.substr(0, 8) == "[\"AUTH\",") {
        const auto frame = nlohmann::json::parse(payload, nullptr, false);
        if (frame.is_array() && frame.size() == 2 && frame[1].is_string())
            m_challenge = frame[1].get<std::string>();
    }
}

} // namespace buzz::relay::bench
