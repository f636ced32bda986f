// The HTTP connection guard's stream tracker (relay/server/HttpRequestGuard), which reads raw bytes
// from any client before QHttpServer does: never crash, keep its own bounds, and decide the same
// whatever the packet boundaries. The first input byte picks where the stream is split.

#include "FuzzCheck.h"

#include "relay/server/HttpRequestGuard.h"

using buzz::relay::HttpLimits;
using buzz::relay::HttpRequestGuard;

namespace {

bool sameVerdict(const HttpRequestGuard::Verdict &a, const HttpRequestGuard::Verdict &b)
{
    return a.kind == b.kind && a.status == b.status && a.body == b.body;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::size_t step = 1 + data[0] % 97;
    const std::string_view stream(reinterpret_cast<const char *>(data + 1), size - 1);
    HttpLimits limits;
    limits.maxHeadBytes = 512; // small bounds so the fuzzer reaches them
    limits.maxBodyBytes = 1024;

    HttpRequestGuard whole(limits);
    const auto once = whole.feed(stream);

    HttpRequestGuard pieces(limits);
    HttpRequestGuard::Verdict last;
    for (std::size_t at = 0; at < stream.size(); at += step) {
        last = pieces.feed(stream.substr(at, step));
        if (last.kind != HttpRequestGuard::Verdict::Kind::Continue)
            break;
    }
    FUZZ_CHECK(sameVerdict(once, last), "verdict depends on packet boundaries");
    FUZZ_CHECK(whole.phase() == pieces.phase(), "phase depends on packet boundaries");
    FUZZ_CHECK(whole.completedRequests() == pieces.completedRequests(),
               "request count depends on packet boundaries");
    if (once.kind == HttpRequestGuard::Verdict::Kind::Reject) {
        FUZZ_CHECK(once.status >= 400 && once.status < 500, "refusal is not a 4xx");
        // Final: more bytes change nothing.
        FUZZ_CHECK(sameVerdict(whole.feed("GET / HTTP/1.1\r\n\r\n"), once), "refusal not final");
    }
    if (whole.phase() != HttpRequestGuard::Phase::Rejected
        && whole.phase() != HttpRequestGuard::Phase::Upgraded) {
        FUZZ_CHECK(whole.lastHead().contentLength <= limits.maxBodyBytes || whole.lastHead().chunked
                       || whole.completedRequests() == 0,
                   "a body over the limit was let through");
    }
    return 0;
}
