// Protocol-core throughput: parse + id + verify of signed event JSON, signing, and the bare
// libsecp256k1 schnorrsig_verify loop over the same keys and messages as the anchor.
#include "net/nostr/Event.h"
#include "net/nostr/Hex.h"
#include "net/nostr/Keys.h"

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace buzz::nostr;
using buzz::Expected;

namespace {

constexpr int kKeys = 64;
constexpr int kEvents = 2000;
constexpr int kSigned = 500;
constexpr int kRounds = 3;

// This thread's CPU time, not wall time: the machine is shared, and preemption by other processes
// would otherwise land on whichever loop happened to be running.
struct Clock
{
    using duration = std::chrono::nanoseconds;
    using time_point = std::chrono::time_point<Clock, duration>;
    static time_point now()
    {
        timespec now {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return time_point(duration(std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec));
    }
};

// A canvas-sized event: channel tag, a parent reference, a few hundred bytes of Markdown with
// characters that need escaping.
Event makeEvent(int index)
{
    Event event;
    event.createdAt = 1'700'000'000 + index;
    event.kind = index % 3 == 0 ? 40100 : 9;
    event.tags = {{"h", "3f1c2b9e-0000-4000-8000-00000000000" + std::to_string(index % 10)},
                  {"e", std::string(64, "0123456789abcdef"[index % 16]), "", "reply"}};
    event.content = "# Notes " + std::to_string(index)
        + "\n\nSome \"quoted\" text, a tab\there, a backslash \\ and ünïcödé — plus a list:\n"
          "- first item\n- second item with `code`\n- third item\n\n"
          "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
          "incididunt.";
    return event;
}

struct RawSignedMessage
{
    secp256k1_xonly_pubkey publicKey;
    std::array<std::uint8_t, 32> message;
    std::array<std::uint8_t, 64> signature;
};

void printLine(const char *name, double value, const char *unit, const char *target,
               const char *anchorName, double anchorValue, double ratio)
{
    if (anchorName)
        std::printf("BENCH %s | %.0f %s | target %s | anchor %s %.0f | ratio %.3f\n", name, value,
                    unit, target, anchorName, anchorValue, ratio);
    else
        std::printf("BENCH %s | %.0f %s | target %s | anchor - | ratio -\n", name, value, unit,
                    target);
}

} // namespace

int main()
{
    std::vector<SecretKey> keys;
    keys.reserve(kKeys);
    for (int i = 0; i < kKeys; ++i)
        keys.push_back(SecretKey::generate());

    std::vector<Event> unsignedEvents;
    std::vector<std::string> jsonEvents;
    std::vector<RawSignedMessage> rawMessages(kEvents);
    secp256k1_context *bareContext = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    for (int i = 0; i < kEvents; ++i) {
        Event event = makeEvent(i);
        unsignedEvents.push_back(event);
        keys[i % kKeys].signEvent(event);
        jsonEvents.push_back(event.toJson());
        std::uint8_t publicKey[32];
        fromHex(event.pubkey, publicKey, 32);
        fromHex(event.id, rawMessages[i].message.data(), 32);
        fromHex(event.sig, rawMessages[i].signature.data(), 64);
        if (!secp256k1_xonly_pubkey_parse(bareContext, &rawMessages[i].publicKey, publicKey))
            return 1;
    }

    // The two verify loops alternate in small chunks over the same events so that load from other
    // processes on the machine hits both alike; totals over all rounds give the throughputs.
    constexpr int kChunk = 50;
    Clock::duration libraryTime {};
    Clock::duration bareTime {};
    Clock::duration signTime {};
    int failures = 0;
    for (int round = 0; round < kRounds; ++round) {
        for (int first = 0; first < kEvents; first += kChunk) {
            const auto libraryStart = Clock::now();
            for (int i = first; i < first + kChunk; ++i) {
                Expected<Event> event = Event::fromJson(std::string_view(jsonEvents[i]));
                if (!event || event->verificationError())
                    ++failures;
            }
            const auto bareStart = Clock::now();
            for (int i = first; i < first + kChunk; ++i) {
                const RawSignedMessage &raw = rawMessages[i];
                if (!secp256k1_schnorrsig_verify(bareContext, raw.signature.data(),
                                                 raw.message.data(), raw.message.size(),
                                                 &raw.publicKey))
                    ++failures;
            }
            const auto bareEnd = Clock::now();
            libraryTime += bareStart - libraryStart;
            bareTime += bareEnd - bareStart;
        }
        const auto signStart = Clock::now();
        for (int i = 0; i < kSigned; ++i) {
            Event event = unsignedEvents[i];
            keys[i % kKeys].signEvent(event);
        }
        signTime += Clock::now() - signStart;
    }
    const auto perSecond = [](double count, Clock::duration time) {
        return count / std::chrono::duration<double>(time).count();
    };
    const double library = perSecond(double(kRounds) * kEvents, libraryTime);
    const double bare = perSecond(double(kRounds) * kEvents, bareTime);
    const double sign = perSecond(double(kRounds) * kSigned, signTime);
    secp256k1_context_destroy(bareContext);
    if (failures) {
        std::fprintf(stderr, "%d verifications failed\n", failures);
        return 1;
    }

    printLine("nostr_event_parse_id_verify", library, "events/s", "ratio>=0.85",
              "bare_schnorrsig_verify", bare, library / bare);
    printLine("nostr_event_sign", sign, "events/s", "-", nullptr, 0, 0);
    printLine("bare_schnorrsig_verify", bare, "verifies/s", "-", nullptr, 0, 0);
    return 0;
}
