#include "net/nostr/RelayUrl.h"

#include <algorithm>
#include <charconv>

namespace buzz::nostr {

namespace {

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? char(c + 32) : c; });
    return out;
}

std::string_view trimmed(std::string_view text)
{
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string_view trimTrailingSlashes(std::string_view text)
{
    while (!text.empty() && text.back() == '/')
        text.remove_suffix(1);
    return text;
}

// A dotted-quad IPv4 address whose first octet is 127.
bool isLoopbackIpv4(std::string_view host)
{
    int octets = 0;
    int first = -1;
    while (true) {
        const std::size_t dot = host.find('.');
        const std::string_view part = host.substr(0, dot);
        int value = 0;
        const auto result = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || part.size() > 3 || result.ec != std::errc()
            || result.ptr != part.data() + part.size() || value > 255)
            return false;
        if (first < 0)
            first = value;
        ++octets;
        if (dot == std::string_view::npos)
            break;
        host.remove_prefix(dot + 1);
    }
    return octets == 4 && first == 127;
}

bool isLoopbackHost(std::string_view host)
{
    return host == "localhost" || host == "[::1]" || host == "::1" || isLoopbackIpv4(host);
}

bool isDefaultPort(std::string_view scheme, std::string_view port)
{
    if (scheme == "http" || scheme == "ws")
        return port == "80";
    if (scheme == "https" || scheme == "wss")
        return port == "443";
    return false;
}

struct HostPort
{
    std::string host; // lower-cased, brackets kept for IPv6
    std::string port; // empty when absent
};

HostPort splitHostPort(std::string_view authority)
{
    HostPort out;
    std::size_t portStart = std::string_view::npos;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close != std::string_view::npos && close + 1 < authority.size()
            && authority[close + 1] == ':')
            portStart = close + 1;
    } else {
        portStart = authority.rfind(':');
    }
    if (portStart == std::string_view::npos) {
        out.host = lowerCase(authority);
    } else {
        out.host = lowerCase(authority.substr(0, portStart));
        out.port = std::string(authority.substr(portStart + 1));
    }
    return out;
}

// The host as both sides of an authentication compare it (a URL's authority and a Host header):
// one trailing dot dropped (`host.` is the same name written fully qualified), loopback folded.
void normalizeHostName(HostPort &hostPort)
{
    if (!hostPort.host.empty() && hostPort.host.back() == '.')
        hostPort.host.pop_back();
    if (isLoopbackHost(hostPort.host))
        hostPort.host = "127.0.0.1";
}

std::string replaceScheme(std::string_view url, std::string_view from, std::string_view to)
{
    if (url.size() >= from.size() && lowerCase(url.substr(0, from.size())) == from)
        return std::string(to) + std::string(url.substr(from.size()));
    return std::string(url);
}

} // namespace

std::string normalizeRelayUrl(std::string_view url)
{
    url = trimmed(url);
    const std::size_t schemeEnd = url.find("://");
    if (schemeEnd == std::string_view::npos)
        return std::string(trimTrailingSlashes(url));
    const std::string scheme = lowerCase(url.substr(0, schemeEnd));
    std::string_view rest = url.substr(schemeEnd + 3);
    const std::size_t authorityEnd = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, authorityEnd);
    std::string_view tail =
        authorityEnd == std::string_view::npos ? std::string_view() : rest.substr(authorityEnd);

    std::string userInfo;
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
        userInfo = std::string(authority.substr(0, at + 1));
        authority.remove_prefix(at + 1);
    }
    HostPort hostPort = splitHostPort(authority);
    normalizeHostName(hostPort);

    // Only the path loses trailing slashes; a query or fragment stays as written.
    const std::size_t pathEnd = tail.find_first_of("?#");
    const std::string_view path = trimTrailingSlashes(tail.substr(0, pathEnd));
    const std::string_view suffix =
        pathEnd == std::string_view::npos ? std::string_view() : tail.substr(pathEnd);

    std::string out;
    out.reserve(url.size() + 8);
    out.append(scheme).append("://").append(userInfo).append(hostPort.host);
    if (!hostPort.port.empty() && !isDefaultPort(scheme, hostPort.port))
        out.append(":").append(hostPort.port);
    out.append(path).append(suffix);
    return out;
}

std::string httpBaseFromRelayUrl(std::string_view url)
{
    url = trimTrailingSlashes(trimmed(url));
    std::string out = replaceScheme(url, "wss://", "https://");
    if (out.size() == url.size())
        out = replaceScheme(url, "ws://", "http://");
    return out;
}

std::string wsUrlFromHttpBase(std::string_view url)
{
    url = trimmed(url);
    std::string out = replaceScheme(url, "https://", "wss://");
    if (out.size() == url.size())
        out = replaceScheme(url, "http://", "ws://");
    return out;
}

std::string normalizeHost(std::string_view hostHeader)
{
    HostPort hostPort = splitHostPort(trimmed(hostHeader));
    if (hostPort.port == "80" || hostPort.port == "443")
        hostPort.port.clear();
    normalizeHostName(hostPort);
    return hostPort.port.empty() ? hostPort.host : hostPort.host + ":" + hostPort.port;
}

} // namespace buzz::nostr
