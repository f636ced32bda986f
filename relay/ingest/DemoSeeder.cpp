#include "relay/ingest/DemoSeeder.h"

#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"
#include "net/nostr/Sha256.h"

#include <QLoggingCategory>

#include <optional>

Q_DECLARE_LOGGING_CATEGORY(lcIngest)

namespace buzz::relay::ingest {

namespace {
nostr::SecretKey demoKey(const char *name)
{
    // Deterministic, documented demo identities: never use them for anything real.
    return std::move(
               nostr::SecretKey::parse(nostr::sha256Hex(std::string("buzz-demo-key:") + name)))
        .value();
}

struct DemoChannel
{
    const char *uuid;
    const char *name;
    const char *about;
    const char *revisions[4];
};

constexpr DemoChannel kChannels[] = {
    {"6b1f3c2e-0a4d-4c8e-9b7a-0d5e1f2a3b01",
     "design",
     "Product design discussions",
     {"# Design\n\nGoals for the quarter.\n",
      "# Design\n\nGoals for the quarter.\n\n- Ship the canvas editor\n",
      "# Design\n\nGoals for the quarter.\n\n- Ship the canvas editor\n- Conflict dialog\n",
      "# Design\n\nGoals for the quarter.\n\n- [x] Ship the canvas editor\n- [ ] Conflict "
      "dialog\n- [ ] History "
      "panel\n"}},
    {"6b1f3c2e-0a4d-4c8e-9b7a-0d5e1f2a3b02",
     "engineering",
     "Build, test, release",
     {"# Engineering\n\n## On call\n\nNobody yet.\n",
      "# Engineering\n\n## On call\n\nAlice this week.\n",
      "# Engineering\n\n## On call\n\nAlice this week.\n\n## Release\n\n`0.1.0` on Friday.\n",
      nullptr}},
    {"6b1f3c2e-0a4d-4c8e-9b7a-0d5e1f2a3b03",
     "random",
     "",
     {"Welcome! Say hi.\n", "Welcome! Say hi.\n\n> Be kind.\n", nullptr, nullptr}},
};

IngestResult submit(const DemoSeeder::Ingest &ingest, const nostr::SecretKey &key,
                    const std::string &community, int kind, std::int64_t createdAt,
                    nostr::Tags tags, std::string content, std::string *id = nullptr)
{
    const nostr::Event event =
        key.signedEvent(kind, createdAt, std::move(tags), std::move(content));
    if (id)
        *id = event.id;
    return ingest(event, RequestContext {community, event.pubkey, Transport::Http});
}
} // namespace

std::string DemoSeeder::alicePublicKeyHex()
{
    return demoKey("alice").publicKeyHex();
}

std::string DemoSeeder::bobPublicKeyHex()
{
    return demoKey("bob").publicKeyHex();
}

void DemoSeeder::seed(const std::string &community, std::int64_t now, const Ingest &ingest)
{
    const auto alice = demoKey("alice");
    const auto bob = demoKey("bob");
    submit(ingest, alice, community, 0, now - 700, {},
           R"j({"name":"alice","display_name":"Alice (demo)"})j");
    submit(ingest, bob, community, 0, now - 700, {},
           R"j({"name":"bob","display_name":"Bob (demo)"})j");
    for (const auto &channel : kChannels) {
        nostr::Tags createTags {{"h", channel.uuid},
                                {"name", channel.name},
                                {"visibility", "open"},
                                {"channel_type", "stream"}};
        if (*channel.about)
            createTags.push_back({"about", channel.about});
        const auto created = submit(ingest, alice, community, nostr::kinds::kGroupCreate, now - 600,
                                    std::move(createTags), "");
        if (!created.accepted()) {
            qCInfo(lcIngest) << "demo channel" << channel.name
                             << "not seeded:" << created.message.c_str();
            continue;
        }
        submit(ingest, bob, community, nostr::kinds::kGroupJoin, now - 590, {{"h", channel.uuid}},
               "");
        submit(ingest, alice, community, 9, now - 580, {{"h", channel.uuid}},
               std::string("Welcome to #") + channel.name + "! The canvas has the plan.");
        std::optional<std::string> head;
        std::int64_t createdAt = now - 500;
        for (int i = 0; i < 4 && channel.revisions[i]; ++i) {
            const auto &author = i % 2 == 0 ? alice : bob;
            std::string id;
            const auto saved =
                submit(ingest, author, community, nostr::kinds::kCanvas, createdAt,
                       {{"h", channel.uuid}, {"expected-revision", head.value_or("none")}},
                       channel.revisions[i], &id);
            if (!saved.accepted())
                break;
            head = id;
            createdAt += 90;
        }
    }
}

} // namespace buzz::relay::ingest
