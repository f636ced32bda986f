// Filter field lists: more than 1 000 values per field are refused before any connection is taken,
// and a list of 1 000 is answered in milliseconds (bound as one JSON array, not 1 000 parameters).

#include "test_engine_support.h"

#include "relay/query/FilterLimits.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace enginetest;

namespace {

std::string idList(const std::vector<std::string> &ids)
{
    std::string json;
    for (std::size_t i = 0; i < ids.size(); ++i)
        json += (i ? ",\"" : "\"") + ids[i] + "\"";
    return json;
}

std::string fakeId(std::size_t i)
{
    std::string id = std::to_string(i);
    return std::string(64 - id.size(), 'f') + id;
}

} // namespace

class TestQueryFilterLimits : public QObject
{
    Q_OBJECT
private slots:
    void tooManyValuesAreRefusedQuickly()
    {
        EngineHarness h;
        Identity alice;
        std::vector<std::string> ids;
        for (std::size_t i = 0; i < 80000; ++i)
            ids.push_back(fakeId(i));
        QElapsedTimer timer;
        timer.start();
        const auto result = h.runQuery(alice, "[{\"ids\":[" + idList(ids) + "]}]");
        QCOMPARE(int(result.status), int(QueryResult::Status::BadRequest));
        QCOMPARE(result.message,
                 std::string("invalid: filter ids has 80000 values, maximum is 1000"));
        qInfo("refused in %lld ms", qint64(timer.elapsed()));

        std::string kinds;
        for (int i = 0; i <= 1000; ++i)
            kinds += (i ? "," : "") + std::to_string(i);
        const auto counted =
            h.engine->count(*nostr::Filter::listFromJson("[{\"kinds\":[" + kinds + "]}]"),
                            alice.http(), ReadPath::BridgeCount);
        QCOMPARE(counted.message,
                 std::string("invalid: filter kinds has 1001 values, maximum is 1000"));
        const auto admitted = h.engine->admitSubscription(
            *nostr::Filter::listFromJson("[{\"#p\":[" + idList(ids) + "]}]"), alice.ws());
        QVERIFY(admitted.has_value());
        QCOMPARE(*admitted, std::string("invalid: filter #p has 80000 values, maximum is 1000"));
    }

    void aThousandValuesAreAnsweredInMilliseconds()
    {
        EngineHarness h;
        Identity alice;
        std::vector<std::string> ids;
        for (int i = 0; i < 300; ++i) {
            const auto event = alice.sign(1, h.now - i, {}, "note " + std::to_string(i));
            QVERIFY(h.submit(alice, event).accepted());
            if (i % 2 == 0)
                ids.push_back(event.id);
        }
        while (ids.size() < query::FilterLimits::kMaxValuesPerField)
            ids.push_back(fakeId(ids.size()));
        QElapsedTimer timer;
        timer.start();
        const auto result =
            h.runQuery(alice, "[{\"ids\":[" + idList(ids) + "],\"kinds\":[1],\"limit\":1000}]");
        const qint64 ms = timer.elapsed();
        QCOMPARE(int(result.status), int(QueryResult::Status::Ok));
        QCOMPARE(result.events.size(), std::size_t(150)); // every other stored note
        std::string authors = "\"" + alice.pubkey() + "\"";
        for (std::size_t i = 1; i < 1000; ++i)
            authors += ",\"" + fakeId(i) + "\"";
        const auto byAuthor =
            h.runQuery(alice, "[{\"authors\":[" + authors + "],\"kinds\":[1],\"limit\":1000}]");
        QCOMPARE(byAuthor.events.size(), std::size_t(300));
        qInfo("1000 ids answered in %lld ms", ms);
        QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
    }
};

QTEST_GUILESS_MAIN(TestQueryFilterLimits)
#include "test_query_filter_limits.moc"
