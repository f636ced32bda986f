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
#include <cstdlib>
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

struct Dataset
{
    std::vector<std::string> json;
    std::vector<RawSignedMessage> raw;
};

// kEvents signed events; event i is signed by keys[i % keys.size()].
Dataset buildDataset(const std::vector<SecretKey> &keys, secp256k1_context *bareContext)
{
    Dataset data;
    data.raw.resize(kEvents);
    for (int i = 0; i < kEvents; ++i) {
        Event event = makeEvent(i);
        keys[i % keys.size()].signEvent(event);
        data.json.push_back(event.toJson());
        std::uint8_t publicKey[32];
        fromHex(event.pubkey, publicKey, 32);
        fromHex(event.id, data.raw[i].message.data(), 32);
        fromHex(event.sig, data.raw[i].signature.data(), 64);
        if (!secp256k1_xonly_pubkey_parse(bareContext, &data.raw[i].publicKey, publicKey))
            std::abort();
    }
    return data;
}

double perSecond(double count, Clock::duration time)
{
    return count / std::chrono::duration<double>(time).count();
}

struct Comparison
{
    double library = 0; // events/s: JSON text → Event, id recomputed, signature verified
    double bare = 0; // verifies/s: secp256k1_schnorrsig_verify on pre-parsed keys and raw bytes
};

// The two loops alternate in small chunks over the same events so that load from other processes
// hits both alike; totals over all rounds give the throughputs.
Comparison compare(const Dataset &data, secp256k1_context *bareContext)
{
    constexpr int kChunk = 50;
    Clock::duration libraryTime {};
    Clock::duration bareTime {};
    int failures = 0;
    for (int round = 0; round < kRounds; ++round) {
        for (int first = 0; first < kEvents; first += kChunk) {
            const auto libraryStart = Clock::now();
            for (int i = first; i < first + kChunk; ++i) {
                Expected<Event> event = Event::fromJson(std::string_view(data.json[i]));
                if (!event || event->verificationError())
                    ++failures;
            }
            const auto bareStart = Clock::now();
            for (int i = first; i < first + kChunk; ++i) {
                const RawSignedMessage &raw = data.raw[i];
                if (!secp256k1_schnorrsig_verify(bareContext, raw.signature.data(),
                                                 raw.message.data(), raw.message.size(),
                                                 &raw.publicKey))
                    ++failures;
            }
            const auto bareEnd = Clock::now();
            libraryTime += bareStart - libraryStart;
            bareTime += bareEnd - bareStart;
        }
    }
    if (failures) {
        std::fprintf(stderr, "%d verifications failed\n", failures);
        std::exit(1);
    }
    return {perSecond(double(kRounds) * kEvents, libraryTime),
            perSecond(double(kRounds) * kEvents, bareTime)};
}

} // namespace

int main()
{
    secp256k1_context *bareContext = secp256k1_context_create(SECP256K1_CONTEXT_NONE);

    // A channel's worth of writers, each posting many events: the usual relay and client load.
    std::vector<SecretKey> channelKeys;
    for (int i = 0; i < kKeys; ++i)
        channelKeys.push_back(SecretKey::generate());
    const Comparison repeat = compare(buildDataset(channelKeys, bareContext), bareContext);

    // Every event from a new author: the parsed-key cache never hits (worst case).
    std::vector<SecretKey> strangerKeys;
    for (int i = 0; i < kEvents; ++i)
        strangerKeys.push_back(SecretKey::generate());
    const Comparison strangers = compare(buildDataset(strangerKeys, bareContext), bareContext);
    secp256k1_context_destroy(bareContext);

    Clock::duration signTime {};
    for (int round = 0; round < kRounds; ++round) {
        for (int i = 0; i < kSigned; ++i) {
            Event event = makeEvent(i);
            const auto start = Clock::now();
            channelKeys[i % kKeys].signEvent(event);
            signTime += Clock::now() - start;
        }
    }

    printLine("nostr_event_parse_id_verify", repeat.library, "events/s", ">= 0.85x bare verify",
              "bare_schnorrsig_verify", repeat.bare, repeat.library / repeat.bare);
    printLine("nostr_event_parse_id_verify_new_authors", strangers.library, "events/s", "-",
              "bare_schnorrsig_verify", strangers.bare, strangers.library / strangers.bare);
    printLine("nostr_event_sign", perSecond(double(kRounds) * kSigned, signTime), "events/s", "-",
              nullptr, 0, 0);
    printLine("bare_schnorrsig_verify", repeat.bare, "verifies/s", "-", nullptr, 0, 0);
    return 0;
}
