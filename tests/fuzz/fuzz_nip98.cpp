// NIP-98 Authorization header decode and verification with a fuzzed header, body, URL and
// method (input: header\0body\0url\0method). Never crash; anything accepted really is a valid,
// signed kind-27235 event inside the time window.

#include "FuzzCheck.h"

#include "net/nostr/Nip98.h"

namespace nip98 = buzz::nostr::nip98;

// Seeds are signed at this instant (tests/fuzz/make_fuzz_seeds.cpp), so they pass the ±60 s window
// and the fuzzer starts from inputs that reach the signature, URL, method and payload checks.
constexpr std::int64_t kFuzzNow = 1'700'000'000;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    const auto parts = fuzzutil::splitParts(data, size, 4);
    const std::string_view url =
        parts[2].empty() ? std::string_view("http://127.0.0.1:3000/query") : parts[2];
    const std::string_view method = parts[3].empty() ? std::string_view("POST") : parts[3];
    const auto event = nip98::verifyAuthorizationHeader(parts[0], url, method, parts[1], kFuzzNow);
    if (!event) {
        FUZZ_CHECK(!event.error().empty(), "a refusal without a message");
        return 0;
    }
    FUZZ_CHECK(event->kind == nip98::kHttpAuthKind, "accepted an event of another kind");
    FUZZ_CHECK(event->verify(), "accepted an event whose id or signature does not verify");
    const auto delta = event->createdAt - kFuzzNow;
    FUZZ_CHECK(delta >= -nip98::kTimestampToleranceSecs && delta <= nip98::kTimestampToleranceSecs,
               "accepted an event outside the time window");
    FUZZ_CHECK(event->tagValue("u") != nullptr, "accepted an event without a u tag");
    FUZZ_CHECK(event->tagValue("method") != nullptr, "accepted an event without a method tag");
    return 0;
}
