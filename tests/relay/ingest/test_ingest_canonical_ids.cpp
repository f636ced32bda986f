// Channel ids and public keys are refused unless written canonically (a lower-case UUID, 64
// lower-case hex digits). The relay resolves an `h` tag to its channel lower-cased while `#h`
// reads post-match the tag as written (docs/buzz-protocol.md §POST /query), so an upper-case `h`
// stored a canvas revision that became the compare-and-swap head but that no `#h` read returned:
// every later conditional save conflicted. An upper-case `p` on kind 9000 added a member row for a
// key nobody signs with.

#include "test_engine_support.h"

#include <QString>
#include <QTest>

using namespace enginetest;
using Status = IngestResult::Status;

namespace {
std::string upper(const std::string &text)
{
    return QString::fromStdString(text).toUpper().toStdString();
}
} // namespace

class TestIngestCanonicalIds : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> h;
    Identity owner, member;
    std::string channel;

    IngestResult submit(const Identity &who, int kind, nostr::Tags tags, std::string content = {})
    {
        return h->submit(who, who.sign(kind, ++h->now, std::move(tags), std::move(content)));
    }
    static void refused(const IngestResult &result, const std::string &message)
    {
        QVERIFY2(result.status == Status::Rejected, result.message.c_str());
        QCOMPARE(result.message, message);
    }
    std::vector<std::string> memberKeys()
    {
        std::vector<std::string> keys;
        const auto rows = h->query(owner, "[{\"kinds\":[39002],\"#d\":[\"" + channel + "\"]}]");
        if (rows.empty())
            return keys;
        for (const auto &tag : rows.front().event.tags) {
            if (tag.size() >= 2 && tag[0] == "p")
                keys.push_back(tag[1]);
        }
        return keys;
    }

private slots:
    void init()
    {
        h = std::make_unique<EngineHarness>();
        owner = Identity {};
        member = Identity {};
        channel = h->createChannel(owner, kChannelA, "private");
        QVERIFY(!channel.empty());
        QCOMPARE(int(submit(owner, 9000, {{"h", channel}, {"p", member.pubkey()}}).status),
                 int(Status::Stored));
    }

    void upperCaseChannelIdIsRefused()
    {
        const std::string kMessage = "invalid: channel id must be a lower-case UUID";
        const auto v1 =
            member.sign(40100, ++h->now, {{"h", channel}, {"expected-revision", "none"}}, "# v1");
        QCOMPARE(int(h->submit(member, v1).status), int(Status::Stored));
        const auto hidden = member.sign(
            40100, ++h->now, {{"h", upper(channel)}, {"expected-revision", v1.id}}, "# hidden");
        refused(h->submit(member, hidden), kMessage);
        // The head every reader sees is still the one a conditional save must name.
        QCOMPARE(h->canvasHead(owner, channel), std::optional<std::string>(v1.id));
        const auto v2 =
            member.sign(40100, ++h->now, {{"h", channel}, {"expected-revision", v1.id}}, "# v2");
        const auto saved = h->submit(member, v2);
        QVERIFY2(saved.status == Status::Stored, saved.message.c_str());
        QCOMPARE(h->canvasHead(owner, channel), std::optional<std::string>(v2.id));

        refused(submit(member, 9, {{"h", upper(channel)}}, "hello"), kMessage);
        // Mixed case, and a second h tag after a canonical one, are refused alike.
        std::string mixed = channel;
        mixed[1] = 'B'; // "0B0e4c9e-…"
        refused(submit(member, 9, {{"h", channel}, {"h", mixed}}, "hello"), kMessage);
        refused(submit(owner, 9002, {{"h", upper(channel)}, {"topic", "x"}}), kMessage);
        refused(submit(owner, 9007,
                       {{"h", upper(kChannelB)}, {"name", "shouting"}, {"visibility", "open"}}),
                kMessage);
        QVERIFY(h->query(owner, "[{\"kinds\":[39000],\"#d\":[\"" + std::string(kChannelB) + "\"]}]")
                    .empty());
        QCOMPARE(h->query(owner, "[{\"kinds\":[9,40100],\"#h\":[\"" + channel + "\"]}]").size(),
                 std::size_t(2));
    }

    void upperCaseMemberKeyIsRefused()
    {
        const std::string kMessage = "invalid: p tag must be a lower-case hex public key";
        Identity newcomer;
        refused(submit(owner, 9000, {{"h", channel}, {"p", upper(newcomer.pubkey())}}), kMessage);
        refused(submit(owner, 9001, {{"h", channel}, {"p", upper(member.pubkey())}}), kMessage);
        const auto keys = memberKeys();
        QCOMPARE(keys.size(), std::size_t(2)); // the owner and the member, nobody else
        for (const auto &key : keys)
            QVERIFY2(key == owner.pubkey() || key == member.pubkey(), key.c_str());
        // The canonical spelling still works.
        QCOMPARE(int(submit(owner, 9000, {{"h", channel}, {"p", newcomer.pubkey()}}).status),
                 int(Status::Stored));
        QCOMPARE(memberKeys().size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestIngestCanonicalIds)
#include "test_ingest_canonical_ids.moc"
