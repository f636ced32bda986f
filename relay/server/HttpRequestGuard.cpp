#include "relay/server/HttpRequestGuard.h"

#include <algorithm>
#include <charconv>

namespace buzz::relay {

namespace {

constexpr std::size_t kMaxChunkLineBytes = 1024;

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c + 32) : c;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return lower(x) == lower(y);
           });
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// RFC 9110 token characters (header names, methods).
bool isToken(std::string_view text)
{
    if (text.empty())
        return false;
    static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || extra.find(c) != std::string_view::npos;
    });
}

// True when the comma-separated list `value` holds `token` (case-insensitive).
bool listContains(std::string_view value, std::string_view token)
{
    while (!value.empty()) {
        const std::size_t comma = value.find(',');
        if (equalsIgnoringCase(trimmed(value.substr(0, comma)), token))
            return true;
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

// Offset just past the blank line that ends a head, searching from `from`; npos if none yet.
// Bare LF line ends are accepted like QHttpServer's parser does.
std::size_t headEnd(std::string_view buffer, std::size_t from)
{
    for (std::size_t i = from; i < buffer.size(); ++i) {
        if (buffer[i] != '\n')
            continue;
        if (i + 1 < buffer.size() && buffer[i + 1] == '\n')
            return i + 2;
        if (i + 2 < buffer.size() && buffer[i + 1] == '\r' && buffer[i + 2] == '\n')
            return i + 3;
    }
    return std::string_view::npos;
}

// A Sec-WebSocket-Key is 16 bytes in base64 (RFC 6455 §4.1): 22 characters and `==`.
bool isWebSocketKey(std::string_view key)
{
    if (key.size() != 24 || key.substr(22) != "==")
        return false;
    return std::all_of(key.begin(), key.begin() + 22, [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || c == '+' || c == '/';
    });
}

} // namespace

HttpRequestGuard::HttpRequestGuard(HttpLimits limits)
    : m_limits(limits)
{ }

const char *HttpRequestGuard::reasonPhrase(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 405:
        return "Method Not Allowed";
    case 413:
        return "Payload Too Large";
    case 426:
        return "Upgrade Required";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

HttpRequestGuard::Verdict HttpRequestGuard::reject(int status, std::string body)
{
    m_phase = Phase::Rejected;
    m_final = Verdict {Verdict::Kind::Reject, status, std::move(body)};
    return m_final;
}

HttpRequestGuard::Verdict HttpRequestGuard::feed(std::string_view bytes)
{
    Verdict verdict;
    while (!bytes.empty()) {
        switch (m_phase) {
        case Phase::Rejected:
        case Phase::Upgraded:
            return m_final;
        case Phase::Idle:
            // Stray line ends between pipelined requests are allowed before a request line.
            while (!bytes.empty() && (bytes.front() == '\r' || bytes.front() == '\n'))
                bytes.remove_prefix(1);
            if (bytes.empty())
                return verdict;
            m_phase = Phase::Head;
            m_headBuffer.clear();
            break;
        case Phase::Head: {
            const std::size_t searchFrom = m_headBuffer.size() >= 2 ? m_headBuffer.size() - 2 : 0;
            const std::size_t room = m_limits.maxHeadBytes + 1 - m_headBuffer.size();
            m_headBuffer.append(bytes.substr(0, std::min(bytes.size(), room)));
            const std::size_t end = headEnd(m_headBuffer, searchFrom);
            if (end == std::string_view::npos) {
                if (m_headBuffer.size() > m_limits.maxHeadBytes)
                    return reject(431, "request header fields too large");
                return verdict; // consumed everything
            }
            const std::size_t consumed = end - (m_headBuffer.size() - std::min(bytes.size(), room));
            bytes.remove_prefix(consumed);
            if (end > m_limits.maxHeadBytes)
                return reject(431, "request header fields too large");
            verdict = parseHead(std::string_view(m_headBuffer).substr(0, end));
            m_head.headBytes = end;
            m_head.endsWithCrlf = end >= 4 && m_headBuffer.compare(end - 4, 4, "\r\n\r\n") == 0;
            m_headBuffer.clear();
            if (verdict.kind != Verdict::Kind::Continue)
                return verdict;
            verdict = finishHead();
            if (verdict.kind != Verdict::Kind::Continue)
                return verdict;
            break;
        }
        case Phase::Body: {
            const std::size_t used =
                m_head.chunked ? feedChunked(bytes, verdict) : feedBody(bytes, verdict);
            if (verdict.kind != Verdict::Kind::Continue)
                return verdict;
            bytes.remove_prefix(used);
            break;
        }
        }
    }
    return verdict;
}

HttpRequestGuard::Verdict HttpRequestGuard::parseHead(std::string_view head)
{
    m_head = Head {};
    bool sawContentLength = false;
    int upgradeHeaders = 0;
    bool firstLine = true;
    while (!head.empty()) {
        const std::size_t newline = head.find('\n');
        std::string_view line = head.substr(0, newline);
        head.remove_prefix(newline == std::string_view::npos ? head.size() : newline + 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            break; // the blank line that ends the head
        if (firstLine) {
            firstLine = false;
            const std::size_t methodEnd = line.find(' ');
            const std::size_t targetEnd = line.rfind(' ');
            if (methodEnd == std::string_view::npos || targetEnd <= methodEnd)
                return reject(400, "malformed request line");
            m_head.method = std::string(line.substr(0, methodEnd));
            m_head.target = std::string(trimmed(line.substr(methodEnd + 1, targetEnd - methodEnd)));
            m_head.version = std::string(line.substr(targetEnd + 1));
            if (!isToken(m_head.method) || m_head.target.empty()
                || (m_head.version != "HTTP/1.1" && m_head.version != "HTTP/1.0"))
                return reject(400, "malformed request line");
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || !isToken(line.substr(0, colon)))
            return reject(400, "malformed header line");
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = trimmed(line.substr(colon + 1));
        if (equalsIgnoringCase(name, "content-length")) {
            std::uint64_t length = 0;
            const auto parsed = std::from_chars(value.data(), value.data() + value.size(), length);
            if (value.empty() || parsed.ec == std::errc::invalid_argument
                || (parsed.ec == std::errc() && parsed.ptr != value.data() + value.size()))
                return reject(400, "invalid Content-Length");
            if (parsed.ec == std::errc::result_out_of_range)
                length = UINT64_MAX;
            if (sawContentLength && length != m_head.contentLength)
                return reject(400, "conflicting Content-Length headers");
            sawContentLength = true;
            m_head.contentLength = length;
        } else if (equalsIgnoringCase(name, "transfer-encoding")) {
            m_head.chunked = m_head.chunked || listContains(value, "chunked");
        } else if (equalsIgnoringCase(name, "host")) {
            m_head.host = std::string(value);
        } else if (equalsIgnoringCase(name, "upgrade")) {
            // Every Upgrade header counts: QHttpServer looks at one, this guard at all of them.
            m_head.upgradeHeaderIsWebSocket =
                m_head.upgradeHeaderIsWebSocket || listContains(value, "websocket");
            m_head.upgradeIsWebSocketAlone =
                ++upgradeHeaders == 1 && equalsIgnoringCase(value, "websocket");
        } else if (equalsIgnoringCase(name, "connection")) {
            m_head.connectionUpgrade = m_head.connectionUpgrade || listContains(value, "upgrade");
        } else if (equalsIgnoringCase(name, "sec-websocket-key")) {
            m_head.webSocketKey = std::string(value);
        } else if (equalsIgnoringCase(name, "sec-websocket-version")) {
            m_head.webSocketVersion = std::string(value);
        }
    }
    if (firstLine)
        return reject(400, "malformed request line");
    return {};
}

HttpRequestGuard::Verdict HttpRequestGuard::checkWebSocketHandshake()
{
    // A WebSocket upgrade the parser would not recognise as one would reach the routes as a
    // plain GET and never be answered.
    if (!m_head.connectionUpgrade)
        return reject(426, "Connection header did not include 'upgrade'");
    if (m_head.method != "GET")
        return reject(405, "Request method must be `GET`");
    const std::string_view path =
        std::string_view(m_head.target).substr(0, m_head.target.find('?'));
    if (path != "/")
        return reject(400, "WebSocket upgrades are served on / only");
    if (m_head.version != "HTTP/1.1")
        return reject(400, "a WebSocket handshake needs HTTP/1.1");
    // Nothing of a body may follow: after the head the bytes are WebSocket frames.
    if (m_head.chunked || m_head.contentLength > 0)
        return reject(400, "a WebSocket handshake has no body");
    if (!m_head.upgradeIsWebSocketAlone)
        return reject(400, "`Upgrade` header must name websocket alone");
    if (m_head.webSocketVersion != "13")
        return reject(400, "`Sec-WebSocket-Version` header did not include '13'");
    if (!isWebSocketKey(m_head.webSocketKey))
        return reject(400, "`Sec-WebSocket-Key` header missing or invalid");
    // QWebSocketServer finds the end of the head by CR LF CR LF alone; a head ended otherwise
    // would leave it waiting for an end it never sees.
    if (!m_head.endsWithCrlf)
        return reject(400, "malformed WebSocket handshake");
    m_phase = Phase::Upgraded;
    m_final = Verdict {Verdict::Kind::Upgrade, 0, {}};
    return m_final;
}

HttpRequestGuard::Verdict HttpRequestGuard::finishHead()
{
    // Only a real WebSocket handshake leaves HTTP. Any other upgrade (h2c, a bare `Connection:
    // upgrade`) is declined by answering over HTTP/1.1 (RFC 9110 §7.8), so the request and every
    // one after it on the connection keeps the body, head and timeout limits.
    if (m_head.upgradeHeaderIsWebSocket)
        return checkWebSocketHandshake();
    if (!m_head.chunked && m_head.contentLength > m_limits.maxBodyBytes)
        return reject(413, "length limit exceeded");
    m_bodyReceived = 0;
    if (m_head.chunked) {
        m_phase = Phase::Body;
        m_chunkState = ChunkState::Size;
        m_line.clear();
        m_trailerBytes = 0;
    } else if (m_head.contentLength > 0) {
        m_phase = Phase::Body;
        m_bodyRemaining = m_head.contentLength;
    } else {
        finishRequest();
    }
    return {};
}

std::size_t HttpRequestGuard::feedBody(std::string_view bytes, Verdict &)
{
    const std::size_t used = std::size_t(std::min<std::uint64_t>(bytes.size(), m_bodyRemaining));
    m_bodyRemaining -= used;
    if (m_bodyRemaining == 0)
        finishRequest();
    return used;
}

std::size_t HttpRequestGuard::feedChunked(std::string_view bytes, Verdict &verdict)
{
    std::size_t used = 0;
    while (used < bytes.size() && m_phase == Phase::Body) {
        const char c = bytes[used];
        switch (m_chunkState) {
        case ChunkState::Size:
        case ChunkState::Trailer: {
            ++used;
            if (c != '\n') {
                m_line.push_back(c);
                const std::size_t limit = m_chunkState == ChunkState::Size
                    ? kMaxChunkLineBytes
                    : m_limits.maxHeadBytes - std::min(m_limits.maxHeadBytes, m_trailerBytes);
                if (m_line.size() > limit) {
                    verdict = reject(m_chunkState == ChunkState::Size ? 400 : 431,
                                     m_chunkState == ChunkState::Size
                                         ? "malformed chunk size"
                                         : "request header fields too large");
                    return used;
                }
                break;
            }
            std::string_view line = m_line;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            if (m_chunkState == ChunkState::Trailer) {
                m_trailerBytes += m_line.size() + 1;
                m_line.clear();
                if (line.empty())
                    finishRequest();
                break;
            }
            line = trimmed(line.substr(0, line.find(';')));
            std::uint64_t size = 0;
            const auto parsed = std::from_chars(line.data(), line.data() + line.size(), size, 16);
            if (line.empty() || parsed.ec != std::errc()
                || parsed.ptr != line.data() + line.size()) {
                verdict = reject(400, "malformed chunk size");
                return used;
            }
            m_line.clear();
            if (size > m_limits.maxBodyBytes - std::min(m_limits.maxBodyBytes, m_bodyReceived)) {
                verdict = reject(413, "length limit exceeded");
                return used;
            }
            m_bodyReceived += size;
            m_bodyRemaining = size;
            m_chunkState = size == 0 ? ChunkState::Trailer : ChunkState::Data;
            break;
        }
        case ChunkState::Data: {
            const std::size_t take =
                std::size_t(std::min<std::uint64_t>(bytes.size() - used, m_bodyRemaining));
            used += take;
            m_bodyRemaining -= take;
            if (m_bodyRemaining == 0)
                m_chunkState = ChunkState::DataEnd;
            break;
        }
        case ChunkState::DataEnd:
            ++used;
            if (c == '\n')
                m_chunkState = ChunkState::Size;
            else if (c != '\r') {
                verdict = reject(400, "malformed chunk");
                return used;
            }
            break;
        }
    }
    return used;
}

void HttpRequestGuard::finishRequest()
{
    m_phase = Phase::Idle;
    ++m_completed;
}

} // namespace buzz::relay
