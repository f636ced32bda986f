// The soak's paging verdict: a row a complete routed walk missed is an anomaly when a later page
// (Covered: complete below its cursor) owed it, and only a staleness question when the first page
// (Bounded: a replica within the budget may serve it) did. soak_short once reported a backdated
// revision that a stale first page legitimately lacked as "a continuation page was incomplete".

#include "SoakPaging.h"

#include <QtTest>

using namespace buzz::soak;

class TestSoakPaging : public QObject
{
    Q_OBJECT

private slots:
    void classifiesByTheFirstPagesKeyRange_data();
    void classifiesByTheFirstPagesKeyRange();
    void anEmptyFirstPageOwesNothing();
};

void TestSoakPaging::classifiesByTheFirstPagesKeyRange_data()
{
    QTest::addColumn<qint64>("createdAt");
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("expected");
    const int newer = int(PagingMiss::NewerThanFirstPage);
    const int inFirst = int(PagingMiss::InFirstPage);
    const int below = int(PagingMiss::BelowFirstPage);
    // First page: newest (100, "bb"), oldest (50, "xx").
    QTest::newRow("newer than the top") << qint64(120) << QStringLiteral("aa") << newer;
    QTest::newRow("top second, lower id") << qint64(100) << QStringLiteral("aa") << newer;
    QTest::newRow("top second, higher id") << qint64(100) << QStringLiteral("cc") << inFirst;
    QTest::newRow("inside, backdated") << qint64(70) << QStringLiteral("zz") << inFirst;
    QTest::newRow("bottom second, lower id") << qint64(50) << QStringLiteral("ww") << inFirst;
    QTest::newRow("the bottom row itself") << qint64(50) << QStringLiteral("xx") << inFirst;
    QTest::newRow("bottom second, higher id") << qint64(50) << QStringLiteral("yy") << below;
    QTest::newRow("older than the bottom") << qint64(10) << QStringLiteral("aa") << below;
}

void TestSoakPaging::classifiesByTheFirstPagesKeyRange()
{
    QFETCH(qint64, createdAt);
    QFETCH(QString, id);
    QFETCH(int, expected);
    PagingRecord paging;
    paging.firstTop = std::make_pair(qint64(100), QStringLiteral("bb"));
    paging.firstBottom = std::make_pair(qint64(50), QStringLiteral("xx"));
    QCOMPARE(int(classifyPagingMiss(paging, createdAt, id)), expected);
}

void TestSoakPaging::anEmptyFirstPageOwesNothing()
{
    const PagingRecord paging;
    QCOMPARE(classifyPagingMiss(paging, 10, QStringLiteral("aa")), PagingMiss::NewerThanFirstPage);
}

QTEST_GUILESS_MAIN(TestSoakPaging)
#include "test_soak_paging.moc"
