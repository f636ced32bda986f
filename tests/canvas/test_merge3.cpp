#include "canvas/Merge3.h"

#include <QTest>

using buzz::canvas::DiffLine;
using buzz::canvas::Merge3;
using buzz::canvas::MergeHunk;
using buzz::canvas::MergeResult;

class TestMerge3 : public QObject
{
    Q_OBJECT

private slots:
    void splitLinesHandlesTerminators()
    {
        QCOMPARE(Merge3::splitLines(QString()), QStringList());
        QCOMPARE(Merge3::splitLines(QStringLiteral("a\n")), QStringList {QStringLiteral("a")});
        QCOMPARE(Merge3::splitLines(QStringLiteral("a\r\nb")),
                 (QStringList {QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(Merge3::splitLines(QStringLiteral("\n")), QStringList {QString()});
    }

    void nonOverlappingEditsMergeCleanly()
    {
        const QString base = QStringLiteral("# Plan\none\ntwo\nthree\nfour\nfive\n");
        const QString mine = QStringLiteral("# Plan\nONE\ntwo\nthree\nfour\nfive\n");
        const QString theirs = QStringLiteral("# Plan\none\ntwo\nthree\nfour\nFIVE\n");
        const MergeResult result = Merge3::merge(base, mine, theirs);
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("# Plan\nONE\ntwo\nthree\nfour\nFIVE\n"));
    }

    void identicalChangesOnBothSidesAreTakenOnce()
    {
        const MergeResult result = Merge3::merge(
            QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nB\nc\n"), QStringLiteral("a\nB\nc\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("a\nB\nc\n"));
    }

    void overlappingEditsConflictWithAllThreeSides()
    {
        const QString base = QStringLiteral("intro\nstatus: draft\noutro\n");
        const QString mine = QStringLiteral("intro\nstatus: review\noutro\n");
        const QString theirs = QStringLiteral("intro\nstatus: final\noutro\n");
        const MergeResult result = Merge3::merge(base, mine, theirs);
        QCOMPARE(result.conflictCount(), 1);
        const MergeHunk *conflict = nullptr;
        for (const MergeHunk &hunk : result.hunks) {
            if (hunk.conflicting())
                conflict = &hunk;
        }
        QVERIFY(conflict);
        QCOMPARE(conflict->base, QStringList {QStringLiteral("status: draft")});
        QCOMPARE(conflict->mine, QStringList {QStringLiteral("status: review")});
        QCOMPARE(conflict->theirs, QStringList {QStringLiteral("status: final")});
        QCOMPARE(conflict->baseLine, 1);
        QVERIFY(result.text.contains(
            QStringLiteral("<<<<<<< mine\nstatus: review\n||||||| base\nstatus: draft\n"
                           "=======\nstatus: final\n>>>>>>> theirs\n")));
        // Unchanged context survives around the conflict.
        QVERIFY(result.text.startsWith(QStringLiteral("intro\n")));
        QVERIFY(result.text.endsWith(QStringLiteral("outro\n")));
        // Resolving picks per hunk and keeps the clean parts.
        QCOMPARE(result.resolve({MergeResult::Choice::Theirs}), theirs);
        QCOMPARE(result.resolve({MergeResult::Choice::Mine}), mine);
        QCOMPARE(result.resolve({MergeResult::Choice::MineThenTheirs}),
                 QStringLiteral("intro\nstatus: review\nstatus: final\noutro\n"));
        QCOMPARE(result.resolveWithText({QStringLiteral("status: merged")}),
                 QStringLiteral("intro\nstatus: merged\noutro\n"));
    }

    void insertionsAtTheSamePlaceConflict()
    {
        const QString base = QStringLiteral("a\nz\n");
        const MergeResult result =
            Merge3::merge(base, QStringLiteral("a\nmine\nz\n"), QStringLiteral("a\ntheirs\nz\n"));
        QCOMPARE(result.conflictCount(), 1);
        for (const MergeHunk &hunk : result.hunks) {
            if (hunk.conflicting()) {
                QVERIFY(hunk.base.isEmpty());
                QCOMPARE(hunk.mine, QStringList {QStringLiteral("mine")});
                QCOMPARE(hunk.theirs, QStringList {QStringLiteral("theirs")});
            }
        }
        QCOMPARE(result.resolve({MergeResult::Choice::TheirsThenMine}),
                 QStringLiteral("a\ntheirs\nmine\nz\n"));
    }

    void insertionsAtDifferentPlacesMerge()
    {
        const MergeResult result =
            Merge3::merge(QStringLiteral("a\nb\nc\nd\n"), QStringLiteral("top\na\nb\nc\nd\n"),
                          QStringLiteral("a\nb\nc\nd\nbottom\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("top\na\nb\nc\nd\nbottom\n"));
    }

    void deletionAgainstUntouchedMerges()
    {
        const MergeResult result =
            Merge3::merge(QStringLiteral("a\nb\nc\nd\ne\n"), QStringLiteral("a\nc\nd\ne\n"),
                          QStringLiteral("a\nb\nc\nd\nE\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("a\nc\nd\nE\n"));
    }

    void crlfDocumentsMergeAndKeepTheirLineEnding()
    {
        const QString base = QStringLiteral("one\r\ntwo\r\nthree\r\nfour\r\n");
        const QString mine = QStringLiteral("ONE\r\ntwo\r\nthree\r\nfour\r\n");
        const QString theirs = QStringLiteral("one\r\ntwo\r\nthree\r\nFOUR\r\n");
        const MergeResult result = Merge3::merge(base, mine, theirs);
        QVERIFY(result.clean());
        QCOMPARE(result.lineEnding, QStringLiteral("\r\n"));
        QCOMPARE(result.text, QStringLiteral("ONE\r\ntwo\r\nthree\r\nFOUR\r\n"));
    }

    void lineEndingChangeOnOneSideDoesNotConflictEveryLine()
    {
        // Mine converted the file to CRLF and edited nothing else; theirs edited a line.
        const QString base = QStringLiteral("one\ntwo\nthree\n");
        const QString mine = QStringLiteral("one\r\ntwo\r\nthree\r\n");
        const QString theirs = QStringLiteral("one\ntwo\nTHREE\n");
        const MergeResult result = Merge3::merge(base, mine, theirs);
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("one\r\ntwo\r\nTHREE\r\n"));
    }

    void finalLineWithoutNewlineIsPreserved()
    {
        const QString base = QStringLiteral("a\nb\nc");
        const MergeResult result =
            Merge3::merge(base, QStringLiteral("A\nb\nc"), QStringLiteral("a\nb\nC"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("A\nb\nC"));
        QVERIFY(!result.finalNewline);
    }

    void addingAFinalNewlineOnOneSideWins()
    {
        const MergeResult result = Merge3::merge(QStringLiteral("a\nb"), QStringLiteral("a\nb\nc"),
                                                 QStringLiteral("a\nb\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("a\nb\nc\n"));
    }

    void emptyBaseIdenticalCreationsAreClean()
    {
        const MergeResult result =
            Merge3::merge(QString(), QStringLiteral("# Notes\n"), QStringLiteral("# Notes\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QStringLiteral("# Notes\n"));
    }

    void emptyBaseDifferentCreationsConflict()
    {
        const MergeResult result = Merge3::merge(QString(), QStringLiteral("# Mine\nbody\n"),
                                                 QStringLiteral("# Theirs\nbody\n"));
        QVERIFY(!result.clean());
        QCOMPARE(result.resolve({MergeResult::Choice::Theirs}), QStringLiteral("# Theirs\nbody\n"));
    }

    void oneSideEmptyOtherEdited()
    {
        // Mine cleared the canvas, theirs kept it: the deletion is mine's change.
        const MergeResult result =
            Merge3::merge(QStringLiteral("a\nb\n"), QString(), QStringLiteral("a\nb\n"));
        QVERIFY(result.clean());
        QCOMPARE(result.text, QString());
    }

    void lineDiffMarksAddedAndRemoved()
    {
        const auto diff =
            Merge3::lineDiff(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nB\nc\nd\n"));
        QStringList rendered;
        for (const DiffLine &line : diff) {
            const char *prefix =
                line.op == DiffLine::Op::Same ? " " : (line.op == DiffLine::Op::Added ? "+" : "-");
            rendered << QLatin1String(prefix) + line.text;
        }
        QCOMPARE(rendered, (QStringList {" a", "-b", "+B", " c", "+d"}));
        QVERIFY(Merge3::lineDiff(QString(), QString()).empty());
    }

    void largeDocumentMergeIsFast()
    {
        QStringList lines;
        for (int i = 0; i < 5000; ++i)
            lines << QStringLiteral("line %1").arg(i);
        const QString base = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        QStringList mineLines = lines, theirLines = lines;
        mineLines[10] = QStringLiteral("mine edit");
        theirLines[4900] = QStringLiteral("their edit");
        QElapsedTimer timer;
        timer.start();
        const MergeResult result =
            Merge3::merge(base, mineLines.join(QLatin1Char('\n')) + QLatin1Char('\n'),
                          theirLines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        QVERIFY(result.clean());
        QVERIFY(result.text.contains(QStringLiteral("mine edit\n")));
        QVERIFY(result.text.contains(QStringLiteral("their edit\n")));
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestMerge3)
#include "test_merge3.moc"
