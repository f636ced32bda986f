// POST /events, /query and /count bodies through the relay's own entry function
// (HttpBridge::process: auth → body parse → engine) on an in-memory engine. The first input byte
// picks the endpoint; mode 1 re-signs a parsed event so fuzzed events get past the signature check
// and reach the ingest rules and the canvas CAS.
// Invariants: no 500 (internal error) for any body; a 200 /query answer is a JSON array of events
// whose ids verify; a 200 /count answer is {"count":N}.

#include "FuzzCheck.h"

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/auth/HttpAuthenticator.h"
#include "relay/server/HttpBridge.h"

#include <nlohmann/json.hpp>

#include <memory>

using namespace buzz;
using namespace buzz::relay;

namespace {

constexpr std::int64_t kFuzzNow = 1'700'000'000;
// The channel the seeds name (make_fuzz_seeds.cpp), created by the fuzz identity at start-up.
constexpr const char *kChannel = "3f1c2b9e-0000-4000-8000-000000000000";

struct Relay
{
    nostr::SecretKey key = nostr::SecretKey::parse(std::string(63, '0') + "7").value();
    std::unique_ptr<RelayEngine> engine;
    std::unique_ptr<HttpAuthenticator> authenticator;

    Relay()
    {
        RelayEngine::Options options;
        options.relaySecretKeyHex = std::string(63, '0') + "1";
        options.clock = [] {
            return kFuzzNow;
        };
        engine = std::make_unique<RelayEngine>(std::move(options));
        HttpAuthenticator::Options authOptions;
        authOptions.relayUrl = "ws://127.0.0.1:3000";
        authOptions.acceptDevPubkeyHeader = true;
        authOptions.clock = [] {
            return kFuzzNow;
        };
        authenticator = std::make_unique<HttpAuthenticator>(std::move(authOptions));

        nostr::Event create;
        create.kind = 9007;
        create.createdAt = kFuzzNow;
        create.tags = {{"h", kChannel}, {"name", "fuzz"}, {"visibility", "open"}};
        key.signEvent(create);
        const auto created =
            engine->ingest(create, RequestContext {"local", key.publicKeyHex(), Transport::Http});
        FUZZ_CHECK(created.accepted(), "could not create the fuzz channel");
    }

    HttpReply post(HttpBridge::Endpoint endpoint, std::string body)
    {
        HttpBridge::Request request;
        request.endpoint = endpoint;
        request.path = endpoint == HttpBridge::Endpoint::Events ? "/events"
            : endpoint == HttpBridge::Endpoint::Query           ? "/query"
                                                                : "/count";
        request.community = "local";
        request.devPubkey = key.publicKeyHex();
        request.body = std::move(body);
        return HttpBridge::process(request, *authenticator, *engine);
    }
};

Relay &fuzzRelay()
{
    static Relay instance;
    return instance;
}

void checkQueryReply(const HttpReply &reply)
{
    if (reply.status != 200)
        return;
    const auto body = nlohmann::json::parse(reply.body, nullptr, false);
    FUZZ_CHECK(body.is_array(), "a 200 /query answer is not a JSON array");
    for (const auto &item : body) {
        const auto event = nostr::Event::fromJson(item);
        FUZZ_CHECK(bool(event), "a 200 /query answer holds something that is not an event");
        FUZZ_CHECK(event->computeId() == event->id,
                   "a served event's id does not match its content");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int mode = data[0] % 4;
    std::string body(reinterpret_cast<const char *>(data + 1), size - 1);
    HttpReply reply;
    switch (mode) {
    case 0:
        reply = fuzzRelay().post(HttpBridge::Endpoint::Events, std::move(body));
        break;
    case 1: {
        auto event = nostr::Event::fromJson(std::string_view(body));
        if (!event)
            return 0;
        fuzzRelay().key.signEvent(*event);
        reply = fuzzRelay().post(HttpBridge::Endpoint::Events, event->toJson());
        break;
    }
    case 2:
        reply = fuzzRelay().post(HttpBridge::Endpoint::Query, std::move(body));
        checkQueryReply(reply);
        break;
    case 3:
        reply = fuzzRelay().post(HttpBridge::Endpoint::Count, std::move(body));
        if (reply.status == 200)
            FUZZ_CHECK(nlohmann::json::parse(reply.body, nullptr, false).contains("count"),
                       "a 200 /count answer has no count");
        break;
    }
    FUZZ_CHECK(reply.status != 500, "the relay answered 500 (internal error) to a request body");
    FUZZ_CHECK(!reply.body.empty(), "the relay answered with an empty body");
    return 0;
}
