// NIP-29 role rules (docs/buzz-protocol.md §Channel roles, §Ingest order step 9): only owners
// change owner/admin roles, admins manage the members below them, members add members and bots
// (but not back someone an admin or owner removed), and the last owner can never be demoted or
// removed. Refusals read `invalid: actor not authorized`.

#include "test_engine_support.h"

#include <QtTest>

using namespace enginetest;
using Status = IngestResult::Status;

class TestIngestRoles : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> h;
    Identity owner, admin, member, bystander, guest;
    std::string channel;

    IngestResult setRole(const Identity &actor, const Identity &target, const std::string &role)
    {
        nostr::Tags tags {{"h", channel}, {"p", target.pubkey()}};
        if (!role.empty())
            tags.push_back({"role", role});
        return h->submit(actor, actor.sign(9000, ++h->now, tags));
    }
    IngestResult remove(const Identity &actor, const Identity &target)
    {
        return h->submit(actor,
                         actor.sign(9001, ++h->now, {{"h", channel}, {"p", target.pubkey()}}));
    }
    std::string roleOf(const Identity &who)
    {
        const auto rows = h->query(owner, "[{\"kinds\":[39002],\"#d\":[\"" + channel + "\"]}]");
        if (rows.empty())
            return {};
        for (const auto &tag : rows.front().event.tags) {
            if (tag.size() >= 4 && tag[0] == "p" && tag[1] == who.pubkey())
                return tag[3];
        }
        return {};
    }
    void refused(const IngestResult &result, const std::string &message)
    {
        QCOMPARE(int(result.status), int(Status::Rejected));
        QCOMPARE(result.message, message);
    }
    void stored(const IngestResult &result)
    {
        QVERIFY2(result.status == Status::Stored, result.message.c_str());
    }

private slots:
    void init()
    {
        h = std::make_unique<EngineHarness>();
        owner = Identity {};
        admin = Identity {};
        member = Identity {};
        bystander = Identity {};
        guest = Identity {};
        channel = h->createChannel(owner, kChannelA, "private");
        QVERIFY(!channel.empty());
        stored(setRole(owner, admin, "admin"));
        stored(setRole(owner, member, "member"));
        stored(setRole(owner, guest, "guest"));
    }

    void memberCannotDemoteOrRemoveTheOwner()
    {
        refused(setRole(member, owner, "member"), "invalid: actor not authorized");
        refused(remove(member, owner), "invalid: actor not authorized");
        QCOMPARE(roleOf(owner), std::string("owner"));
        // The owner still administers the channel.
        stored(h->submit(owner, owner.sign(9002, ++h->now, {{"h", channel}, {"name", "kept"}})));
    }

    void onlyOwnersChangeOwnerAndAdminRoles()
    {
        refused(setRole(admin, owner, "member"), "invalid: actor not authorized");
        refused(setRole(admin, member, "admin"), "invalid: actor not authorized");
        refused(setRole(admin, bystander, "admin"), "invalid: actor not authorized");
        refused(setRole(member, member, "owner"), "invalid: actor not authorized");
        refused(setRole(admin, admin, "owner"), "invalid: actor not authorized");
        refused(remove(admin, owner), "invalid: actor not authorized");
        stored(setRole(owner, member, "admin"));
        QCOMPARE(roleOf(member), std::string("admin"));
        stored(setRole(owner, member, "member"));
        QCOMPARE(roleOf(member), std::string("member"));
    }

    void adminsManageMembersBelowThem()
    {
        stored(setRole(admin, member, "guest"));
        QCOMPARE(roleOf(member), std::string("guest"));
        stored(setRole(admin, member, "member"));
        stored(remove(admin, member));
        QCOMPARE(roleOf(member), std::string());
        refused(remove(admin, owner), "invalid: actor not authorized");
    }

    void membersAddMembersAndBotsOnly()
    {
        stored(setRole(member, bystander, ""));
        QCOMPARE(roleOf(bystander), std::string("member"));
        Identity bot;
        stored(setRole(member, bot, "bot"));
        refused(setRole(member, Identity {}, "guest"), "invalid: actor not authorized");
        refused(setRole(member, bystander, "bot"), "invalid: actor not authorized"); // a change
        refused(remove(member, bystander), "invalid: actor not authorized");
        refused(setRole(guest, Identity {}, "member"), "invalid: actor not authorized");
    }

    void lastOwnerCanNeverBeDemotedOrRemoved()
    {
        refused(setRole(owner, owner, "admin"), "invalid: cannot remove the last owner");
        refused(remove(owner, owner), "invalid: cannot remove the last owner");
        refused(h->submit(owner, owner.sign(9022, ++h->now, {{"h", channel}})),
                "invalid: cannot remove the last owner");
        // With a second owner, either may step down.
        stored(setRole(owner, admin, "owner"));
        stored(setRole(owner, owner, "member"));
        QCOMPARE(roleOf(owner), std::string("member"));
        refused(remove(admin, admin), "invalid: cannot remove the last owner");
    }

    void removalByAnAdminSticksAgainstMembers()
    {
        // A member may add people, but not undo what an admin or owner decided: someone they
        // removed comes back only through an admin or owner.
        for (const Identity *remover : {&admin, &owner}) {
            Identity unwanted;
            stored(setRole(member, unwanted, ""));
            stored(remove(*remover, unwanted));
            refused(setRole(member, unwanted, ""), "invalid: actor not authorized");
            refused(setRole(member, unwanted, "bot"), "invalid: actor not authorized");
            QCOMPARE(roleOf(unwanted), std::string());
            stored(setRole(admin, unwanted, ""));
            QCOMPARE(roleOf(unwanted), std::string("member"));
            // Re-added, they are a member like any other again.
            stored(remove(unwanted, unwanted));
            stored(setRole(member, unwanted, ""));
        }
    }

    void someoneWhoLeftMayBeAddedBackByAnyMember()
    {
        Identity leaver;
        stored(setRole(member, leaver, ""));
        stored(h->submit(leaver, leaver.sign(9022, ++h->now, {{"h", channel}})));
        stored(setRole(member, leaver, ""));
        QCOMPARE(roleOf(leaver), std::string("member"));
    }

    void anyoneMayLeave()
    {
        stored(remove(member, member));
        stored(h->submit(admin, admin.sign(9022, ++h->now, {{"h", channel}})));
        QCOMPARE(roleOf(admin), std::string());
    }
};

QTEST_GUILESS_MAIN(TestIngestRoles)
#include "test_ingest_roles.moc"
