// Kinds docs/buzz-protocol.md §Kinds lists as accepted and their ingest rules: 45001 forum posts
// (channel scoped), 30023 long-form articles (parameterised replaceable by d), 20001 presence
// (WebSocket only, fanned out, never stored) and 9008 channel deletion (owner only).

#include "test_engine_support.h"

#include <QtTest>

#include <mutex>

using namespace enginetest;
using Status = IngestResult::Status;

namespace {

void expect(const IngestResult &result, Status status, const std::string &message)
{
    QVERIFY2(result.status == status && result.message == message, result.message.c_str());
}

} // namespace

class TestIngestKinds : public QObject
{
    Q_OBJECT
private slots:
    void forumPostsAreChannelScoped()
    {
        EngineHarness h;
        Identity alice;
        const std::string channel = h.createChannel(alice, kChannelA);
        expect(h.submit(alice, alice.sign(45001, h.now, {{"h", channel}}, "post")), Status::Stored,
               "");
        expect(h.submit(alice, alice.sign(45001, h.now, {}, "post")), Status::Rejected,
               "invalid: channel-scoped events must include an h tag");
        QCOMPARE(h.query(alice, "[{\"kinds\":[45001],\"#h\":[\"" + channel + "\"]}]").size(),
                 std::size_t(1));
    }

    void longFormArticlesReplaceByD()
    {
        EngineHarness h;
        Identity alice;
        const auto first = alice.sign(30023, h.now - 10, {{"d", "essay"}}, "draft");
        const auto second = alice.sign(30023, h.now, {{"d", "essay"}}, "final");
        const auto other = alice.sign(30023, h.now, {{"d", "notes"}}, "other");
        expect(h.submit(alice, first), Status::Stored, "");
        expect(h.submit(alice, second), Status::Stored, "");
        expect(h.submit(alice, other), Status::Stored, "");
        expect(h.submit(alice, alice.sign(30023, h.now - 20, {{"d", "essay"}}, "stale")),
               Status::Duplicate, "duplicate:");
        const auto live = h.query(alice, "[{\"kinds\":[30023],\"#d\":[\"essay\"]}]");
        QCOMPARE(live.size(), std::size_t(1));
        QCOMPARE(live.front().event.id, second.id);
        QCOMPARE(h.query(alice, "[{\"kinds\":[30023]}]").size(), std::size_t(2));
        expect(h.submit(alice, alice.sign(30023, h.now, {{"d", std::string(1025, 'd')}}, "x")),
               Status::Rejected, "invalid: d tag too long (1025 bytes, max 1024)");
    }

    void presenceIsWebSocketOnlyAndNeverStored()
    {
        EngineHarness h;
        Identity alice;
        std::mutex mutex;
        std::vector<int> fannedOut;
        h.engine->setCommitListener([&](std::shared_ptr<const StoredEvent> stored) {
            std::lock_guard lock(mutex);
            fannedOut.push_back(stored->event.kind);
        });
        expect(h.submit(alice, alice.sign(20001, h.now, {}, "online"), Transport::Http),
               Status::Rejected, "invalid: kind 20001 is only accepted via WebSocket");
        expect(h.submit(alice, alice.sign(20001, h.now, {}, "online"), Transport::WebSocket),
               Status::Stored, "");
        expect(h.submit(alice, alice.sign(20001, h.now, {}, std::string(129, 's')),
                        Transport::WebSocket),
               Status::Rejected, "invalid: presence status exceeds 128 bytes");
        QCOMPARE(h.query(alice, "[{\"kinds\":[20001]}]").size(), std::size_t(0));
        std::lock_guard lock(mutex);
        QCOMPARE(fannedOut, std::vector<int> {20001});
    }

    void ownerDeletesAChannel()
    {
        EngineHarness h;
        Identity owner, member;
        const std::string channel = h.createChannel(owner, kChannelA, "private");
        expect(h.submit(owner, owner.sign(9000, h.now, {{"h", channel}, {"p", member.pubkey()}})),
               Status::Stored, "");
        expect(h.submit(member, member.sign(9008, h.now, {{"h", channel}})), Status::Rejected,
               "invalid: only owner can delete group");
        expect(h.submit(owner, owner.sign(9008, h.now, {{"h", channel}})), Status::Stored, "");
        QVERIFY(!h.engine->canRead("local", channel, owner.pubkey()));
        QVERIFY(!h.engine->canRead("local", channel, member.pubkey()));
        expect(h.submit(member, member.sign(9, h.now, {{"h", channel}}, "still here?")),
               Status::Rejected, "restricted: not a channel member");
        expect(
            h.submit(owner, owner.sign(9000, h.now + 1, {{"h", channel}, {"p", member.pubkey()}})),
            Status::Rejected, "invalid: channel not found");
    }
};

QTEST_GUILESS_MAIN(TestIngestKinds)
#include "test_ingest_kinds.moc"
