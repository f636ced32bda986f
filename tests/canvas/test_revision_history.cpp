// History as models, without a relay or a widget: which revision a revision replaced (its
// expected-revision parent, else the previous one), who last changed each line and when (across
// authors, after a restore, from a cache, and when older history is missing), the restore and
// merge labels as tags, and whose change is whose in a clean merge.

#include "canvas/CanvasRevision.h"
#include "canvas/LineBlame.h"
#include "canvas/Merge3.h"
#include "canvas/RevisionLabel.h"
#include "canvas/RevisionLineage.h"

#include <QTest>

#include <map>

using namespace buzz;
using canvas::Blame;
using canvas::CanvasRevision;
using canvas::LineBlame;
using canvas::RevisionLabel;
using canvas::RevisionLineage;
using Parent = canvas::RevisionLineage::Parent;

namespace {

const QString kAlice = QString(64, QLatin1Char('a'));
const QString kBob = QString(64, QLatin1Char('b'));
const QString kCarol = QString(64, QLatin1Char('c'));
const QString kDave = QString(64, QLatin1Char('d'));

// A revision with a readable id ("r1" padded to 64 hex-ish characters is not needed: ids here are
// only compared, never verified).
CanvasRevision revision(const QString &id, qint64 createdAt, const QString &author,
                        const QString &content, std::optional<QString> parent)
{
    CanvasRevision made;
    made.eventId = id;
    made.channel = QStringLiteral("c0ffee00-0000-4000-8000-000000000000");
    made.createdAt = createdAt;
    made.author = author;
    made.content = content;
    made.expectedRevision = std::move(parent);
    return made;
}

// Blames `target` the way BlameService does, with every revision at hand.
Blame blameOf(const std::vector<CanvasRevision> &newestFirst, const CanvasRevision &target,
              const std::map<QString, Blame> &cache = {})
{
    LineBlame walk(target);
    while (!walk.done()) {
        const CanvasRevision &current = walk.current();
        if (!current.hasId(target.eventId) && cache.count(current.eventId)) {
            walk.finishFrom(cache.at(current.eventId));
            break;
        }
        const Parent parent = RevisionLineage::parentOf(newestFirst, current, false);
        if (parent.kind == Parent::Kind::First) {
            walk.finishAtRoot();
        } else if (parent.kind == Parent::Kind::Listed) {
            walk.stepTo(newestFirst[std::size_t(parent.row)]);
        } else {
            walk.finishUnknown();
        }
    }
    return walk.result();
}

QStringList whoWrote(const Blame &blame)
{
    QStringList out;
    for (const canvas::BlameLine &line : blame.lines)
        out << QStringLiteral("%1=%2").arg(line.text, line.revisionId);
    return out;
}

} // namespace

class TestRevisionHistory : public QObject
{
    Q_OBJECT

private slots:
    void parentIsTheTaggedRevisionNotThePreviousOne()
    {
        // r4 was saved on r1 (a restore or a merge asserted r1), although r2 and r3 came between.
        const std::vector<CanvasRevision> rows {
            revision(QStringLiteral("r4"), 400, kDave, QStringLiteral("x\n"), QStringLiteral("r1")),
            revision(QStringLiteral("r3"), 300, kCarol, QStringLiteral("x\n"), std::nullopt),
            revision(QStringLiteral("r2"), 200, kBob, QStringLiteral("x\n"), QStringLiteral("r1")),
            revision(QStringLiteral("r1"), 100, kAlice, QStringLiteral("x\n"),
                     QString::fromLatin1(canvas::kExpectedNone)),
        };
        Parent parent = RevisionLineage::parentOf(rows, rows[0], true);
        QCOMPARE(parent.kind, Parent::Kind::Listed);
        QCOMPARE(parent.row, 3);
        QVERIFY(parent.byTag);
        // Untagged (a legacy write): the previous revision in the relay's order.
        parent = RevisionLineage::parentOf(rows, rows[1], true);
        QCOMPARE(parent.kind, Parent::Kind::Listed);
        QCOMPARE(parent.row, 2);
        QVERIFY(!parent.byTag);
        // "none": the first revision replaced nothing, whatever pages may follow.
        QCOMPARE(RevisionLineage::parentOf(rows, rows[3], true).kind, Parent::Kind::First);
    }

    void unlistedParentIsNamedNeverGuessed()
    {
        const std::vector<CanvasRevision> rows {
            revision(QStringLiteral("r9"), 900, kBob, QStringLiteral("b\n"), QStringLiteral("R7")),
            revision(QStringLiteral("r8"), 800, kAlice, QStringLiteral("a\n"), std::nullopt),
        };
        // r9's parent r7 is on no loaded page: it is named (to read by id), not taken to be r8.
        Parent parent = RevisionLineage::parentOf(rows, rows[0], false);
        QCOMPARE(parent.kind, Parent::Kind::Unlisted);
        QCOMPARE(parent.id, QStringLiteral("r7"));
        // An untagged oldest row: its predecessor may be on the next page, or there is none.
        parent = RevisionLineage::parentOf(rows, rows[1], true);
        QCOMPARE(parent.kind, Parent::Kind::Unlisted);
        QVERIFY(parent.id.isEmpty());
        QCOMPARE(RevisionLineage::parentOf(rows, rows[1], false).kind, Parent::Kind::First);
        // A revision the list does not hold yet (a head newer than every page) still finds the
        // previous one by order.
        const CanvasRevision newer =
            revision(QStringLiteral("r10"), 1000, kCarol, QStringLiteral("c\n"), std::nullopt);
        parent = RevisionLineage::parentOf(rows, newer, false);
        QCOMPARE(parent.kind, Parent::Kind::Listed);
        QCOMPARE(parent.row, 0);
    }

    void blameSaysWhoLastChangedEachLine()
    {
        const CanvasRevision r1 =
            revision(QStringLiteral("r1"), 100, kAlice, QStringLiteral("one\ntwo\nthree\n"),
                     QString::fromLatin1(canvas::kExpectedNone));
        const CanvasRevision r2 =
            revision(QStringLiteral("r2"), 200, kBob, QStringLiteral("one\nTWO\nthree\nfour\n"),
                     QStringLiteral("r1"));
        const CanvasRevision r3 =
            revision(QStringLiteral("r3"), 300, kCarol, QStringLiteral("zero\none\nTWO\nfour\n"),
                     QStringLiteral("r2"));
        const std::vector<CanvasRevision> rows {r3, r2, r1};
        const Blame blame = blameOf(rows, r3);
        QCOMPARE(whoWrote(blame),
                 QStringList({QStringLiteral("zero=r3"), QStringLiteral("one=r1"),
                              QStringLiteral("TWO=r2"), QStringLiteral("four=r2")}));
        QVERIFY(blame.complete());
        QCOMPARE(blame.lines[0].author, kCarol);
        QCOMPARE(blame.lines[0].createdAt, qint64(300));
        QCOMPARE(blame.lines[1].author, kAlice);
        QCOMPARE(blame.lines[1].createdAt, qint64(100));
        QCOMPARE(blame.lines[2].author, kBob);
        QCOMPARE(blame.revisionsWalked, 2);

        // A line that goes and comes back is the newer author's: the last change wins.
        const CanvasRevision r4 =
            revision(QStringLiteral("r4"), 400, kAlice, QStringLiteral("zero\none\nfour\n"),
                     QStringLiteral("r3"));
        const CanvasRevision r5 =
            revision(QStringLiteral("r5"), 500, kDave, QStringLiteral("zero\none\nTWO\nfour\n"),
                     QStringLiteral("r4"));
        const std::vector<CanvasRevision> more {r5, r4, r3, r2, r1};
        QCOMPARE(whoWrote(blameOf(more, r5)),
                 QStringList({QStringLiteral("zero=r3"), QStringLiteral("one=r1"),
                              QStringLiteral("TWO=r5"), QStringLiteral("four=r2")}));
    }

    void blameAfterARestore()
    {
        // Bob rewrote Alice's second line; Carol restored Alice's revision (a byte copy, based on
        // Bob's head, labelled): the line Carol brought back is Carol's change, the line nobody
        // touched stays Alice's, and the walk follows the restore's own parent (Bob's revision).
        const CanvasRevision r1 =
            revision(QStringLiteral("r1"), 100, kAlice, QStringLiteral("keep\nalice's\n"),
                     QString::fromLatin1(canvas::kExpectedNone));
        const CanvasRevision r2 = revision(QStringLiteral("r2"), 200, kBob,
                                           QStringLiteral("keep\nbob's\n"), QStringLiteral("r1"));
        CanvasRevision r3 =
            revision(QStringLiteral("r3"), 300, kCarol, r1.content, QStringLiteral("r2"));
        r3.label = RevisionLabel::restoring(r1);
        const std::vector<CanvasRevision> rows {r3, r2, r1};
        const Blame blame = blameOf(rows, r3);
        QCOMPARE(whoWrote(blame),
                 QStringList({QStringLiteral("keep=r1"), QStringLiteral("alice's=r3")}));
        QCOMPARE(blame.lines[1].author, kCarol);
        QVERIFY(blame.complete());
        // Blaming the restored revision itself still says Alice.
        QCOMPARE(whoWrote(blameOf(rows, r1)),
                 QStringList({QStringLiteral("keep=r1"), QStringLiteral("alice's=r1")}));
    }

    void blameFromACachedParentEqualsAFullWalk()
    {
        std::vector<CanvasRevision> rows;
        QString text;
        const QString authors[] = {kAlice, kBob, kCarol};
        for (int i = 0; i < 12; ++i) {
            text += QStringLiteral("line %1\n").arg(i);
            if (i % 3 == 2)
                text.replace(QStringLiteral("line %1\n").arg(i - 2),
                             QStringLiteral("edited %1\n").arg(i - 2));
            const QString id = QStringLiteral("r%1").arg(i);
            const std::optional<QString> parent = i == 0
                ? std::optional<QString>(QString::fromLatin1(canvas::kExpectedNone))
                : std::optional<QString>(QStringLiteral("r%1").arg(i - 1));
            rows.insert(rows.begin(), revision(id, 100 + i, authors[i % 3], text, parent));
        }
        const Blame full = blameOf(rows, rows[0]);
        std::map<QString, Blame> cache;
        cache[rows[1].eventId] = blameOf(rows, rows[1]);
        const Blame fromCache = blameOf(rows, rows[0], cache);
        QCOMPARE(whoWrote(fromCache), whoWrote(full));
        QCOMPARE(fromCache.revisionsWalked, 1); // one line diff, then the cache
        QVERIFY(fromCache.complete());
    }

    void blameStopsOnceEveryLineIsAttributed()
    {
        const CanvasRevision r1 =
            revision(QStringLiteral("r1"), 100, kAlice, QStringLiteral("old\n"),
                     QString::fromLatin1(canvas::kExpectedNone));
        const CanvasRevision r2 = revision(QStringLiteral("r2"), 200, kBob, QStringLiteral("new\n"),
                                           QStringLiteral("r1"));
        LineBlame walk(r2);
        walk.stepTo(r1);
        QVERIFY(walk.done()); // nothing older is needed
        QCOMPARE(walk.result().revisionsWalked, 1);
    }

    void missingHistoryIsReportedNotGuessed()
    {
        const CanvasRevision r2 = revision(QStringLiteral("r2"), 200, kBob,
                                           QStringLiteral("old\nnew\n"), QStringLiteral("r1"));
        const CanvasRevision r3 =
            revision(QStringLiteral("r3"), 300, kCarol, QStringLiteral("old\nnew\nnewest\n"),
                     QStringLiteral("r2"));
        const Blame blame = blameOf({r3, r2}, r3); // r1 was never read
        QVERIFY(!blame.complete());
        QCOMPARE(blame.lines[2].revisionId, QStringLiteral("r3"));
        QVERIFY(!blame.lines[2].orEarlier);
        QCOMPARE(blame.lines[0].revisionId, QStringLiteral("r2"));
        QVERIFY(blame.lines[0].orEarlier);
    }

    void labelTagsRoundTrip()
    {
        CanvasRevision target = revision(QString(64, QLatin1Char('e')), 1'790'000'123, kBob,
                                         QStringLiteral("x\n"), std::nullopt);
        for (const RevisionLabel &label :
             {RevisionLabel::restoring(target), RevisionLabel::merging(target)}) {
            nostr::Event event;
            event.kind = canvas::kCanvasKind;
            event.id = std::string(64, 'f');
            event.tags = {{"h", "c0ffee00-0000-4000-8000-000000000000"},
                          {"expected-revision", std::string(64, '1')},
                          label.tag()};
            const auto read = CanvasRevision::fromEvent(event);
            QVERIFY(read && read->label);
            QCOMPARE(*read->label, label);
            QCOMPARE(read->label->revisionId, target.eventId);
            QCOMPARE(read->label->createdAt, target.createdAt);
            QCOMPARE(read->label->author, kBob);
        }
        QCOMPARE(RevisionLabel::restoring(target).tag().front(), std::string("restored-from"));
        QCOMPARE(RevisionLabel::merging(target).tag().front(), std::string("merged-with"));

        // Malformed label tags are ignored like any unknown tag; a plain save has none.
        nostr::Event event;
        event.kind = canvas::kCanvasKind;
        event.id = std::string(64, 'f');
        event.tags = {{"restored-from", std::string(64, 'e')},
                      {"merged-with", "not-hex", "1", std::string(64, 'b')},
                      {"restored-from", std::string(64, 'e'), "-5", std::string(64, 'b')}};
        QVERIFY(!CanvasRevision::fromEvent(event)->label);

        // A merge label only when the result is neither side unchanged.
        QVERIFY(!RevisionLabel::forMerge(target, QStringLiteral("mine\n"), QStringLiteral("x\n")));
        QVERIFY(
            !RevisionLabel::forMerge(target, QStringLiteral("mine\n"), QStringLiteral("mine\n")));
        QVERIFY(!RevisionLabel::forMerge(std::nullopt, QStringLiteral("a"), QStringLiteral("b")));
        QCOMPARE(
            RevisionLabel::forMerge(target, QStringLiteral("mine\n"), QStringLiteral("mine\nx\n")),
            std::optional<RevisionLabel>(RevisionLabel::merging(target)));
    }

    void cleanMergeSaysWhoseChangeIsWhose()
    {
        const auto merge = canvas::Merge3::merge(QStringLiteral("a\nb\nc\nd\ne\n"),
                                                 QStringLiteral("A\nb\nc\nd\ne\nmine\n"),
                                                 QStringLiteral("a\nb\nC\nd\ne\n"));
        QVERIFY(merge.clean());
        QCOMPARE(merge.text, QStringLiteral("A\nb\nC\nd\ne\nmine\n"));
        using Owner = canvas::MergeResult::Change::Owner;
        const auto changes = merge.changes();
        QCOMPARE(int(changes.size()), 3);
        QCOMPARE(changes[0].owner, Owner::Mine);
        QCOMPARE(changes[0].firstLine, 0);
        QCOMPARE(changes[0].lineCount, 1);
        QCOMPARE(changes[1].owner, Owner::Theirs);
        QCOMPARE(changes[1].firstLine, 2);
        QCOMPARE(changes[2].owner, Owner::Mine);
        QCOMPARE(changes[2].firstLine, 5);
        // A removal sits where the lines were; a change made by both is both's.
        const auto removal = canvas::Merge3::merge(
            QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nc\n"), QStringLiteral("a\nc\n"));
        QCOMPARE(int(removal.changes().size()), 1);
        QCOMPARE(removal.changes()[0].owner, Owner::Both);
        QCOMPARE(removal.changes()[0].lineCount, 0);
        QCOMPARE(removal.changes()[0].firstLine, 1);
        QCOMPARE(removal.changes()[0].removed, 1);
        // A conflicting merge lists none (the dialog resolves it hunk by hunk).
        QVERIFY(canvas::Merge3::merge(QStringLiteral("a\n"), QStringLiteral("b\n"),
                                      QStringLiteral("c\n"))
                    .changes()
                    .empty());
    }
};

QTEST_GUILESS_MAIN(TestRevisionHistory)
#include "test_revision_history.moc"
