// Filter parsing, validation of the Buzz extension fields, matching and serialisation.
#include "net/nostr/Filter.h"

#include <nlohmann/json.hpp>

#include <QTest>

using namespace buzz::nostr;
using buzz::Expected;

namespace {

const std::string kIdA = std::string(64, 'a');
const std::string kIdB = std::string(64, 'b');
const std::string kAlice = std::string(63, 'c') + "1";
const std::string kBob = std::string(63, 'd') + "2";
const std::string kChannel = "3f1c2b9e-0000-4000-8000-000000000000";

Event makeEvent(const std::string &id, const std::string &author, int kind, std::int64_t createdAt,
                Tags tags)
{
    Event event;
    event.id = id;
    event.pubkey = author;
    event.kind = kind;
    event.createdAt = createdAt;
    event.tags = std::move(tags);
    return event;
}

Filter parse(const std::string &json)
{
    Expected<Filter> filter = Filter::fromJson(json);
    if (!filter)
        qFatal("filter did not parse: %s", filter.error().c_str());
    return std::move(filter).value();
}

} // namespace

class TestNostrFilter : public QObject
{
    Q_OBJECT

private slots:
    void parsesEveryStandardField();
    void rejectsBadFields_data();
    void rejectsBadFields();
    void extensionFields();
    void matching_data();
    void matching();
    void serializeRoundTrips();
    void listParsing();
    void singleChannel();
};

void TestNostrFilter::parsesEveryStandardField()
{
    const Filter filter = parse(
        R"({"ids":[")" + kIdA + R"("],"authors":[")" + kAlice + R"("],"kinds":[1,40100],"#h":[")"
        + kChannel
        + R"("],"#e":[],"since":10,"until":20,"limit":5,"search":"hello","unknown":{"x":1},"#long":7})");
    QCOMPARE(filter.ids, std::optional(std::vector {kIdA}));
    QCOMPARE(filter.authors, std::optional(std::vector {kAlice}));
    QCOMPARE(filter.kinds, std::optional(std::vector {1, 40100}));
    QCOMPARE(filter.tags.size(), std::size_t(2));
    QCOMPARE(filter.tags.at('h'), std::vector {kChannel});
    QVERIFY(filter.tags.at('e').empty());
    QCOMPARE(filter.since, std::optional<std::int64_t>(10));
    QCOMPARE(filter.until, std::optional<std::int64_t>(20));
    QCOMPARE(filter.limit, std::optional(5));
    QCOMPARE(filter.search, std::optional<std::string>("hello"));
    QVERIFY(!filter.isStrong());
    QVERIFY(!filter.beforeId && !filter.afterId && !filter.depthLimit);

    const Filter empty = parse("{}");
    QVERIFY(!empty.ids && !empty.authors && !empty.kinds && empty.tags.empty() && !empty.since
            && !empty.limit);
    const Filter nulls = parse(R"({"ids":null,"since":null,"#h":null})");
    QVERIFY(!nulls.ids && !nulls.since && nulls.tags.empty());
}

void TestNostrFilter::rejectsBadFields_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    const QString id = QString::fromStdString(kIdA);
    QTest::newRow("not json") << "{"
                              << "filter: invalid JSON";
    QTest::newRow("not an object") << "[]"
                                   << "filter: must be a JSON object";
    QTest::newRow("short id") << R"({"ids":["abc"]})"
                              << "ids: must be an array of 64-character lower-case hex ids";
    QTest::newRow("upper-case id") << R"({"ids":[")" + id.toUpper() + R"("]})"
                                   << "ids: must be an array of 64-character lower-case hex ids";
    QTest::newRow("ids not array") << R"({"ids":")" + id + R"("})"
                                   << "ids: must be an array of 64-character lower-case hex ids";
    QTest::newRow("bad author")
        << R"({"authors":[1]})"
        << "authors: must be an array of 64-character lower-case hex public keys";
    QTest::newRow("kind too big") << R"({"kinds":[65536]})"
                                  << "kinds: must be an array of integers in 0..65535";
    QTest::newRow("kind string") << R"({"kinds":["1"]})"
                                 << "kinds: must be an array of integers in 0..65535";
    QTest::newRow("tag not array") << R"({"#h":"x"})"
                                   << "#h: must be an array of strings";
    QTest::newRow("tag value number") << R"({"#p":[1]})"
                                      << "#p: must be an array of strings";
    QTest::newRow("negative since") << R"({"since":-1})"
                                    << "since: must be a non-negative integer";
    QTest::newRow("float until") << R"({"until":1.5})"
                                 << "until: must be a non-negative integer";
    QTest::newRow("string limit") << R"({"limit":"5"})"
                                  << "limit: must be a non-negative integer";
    QTest::newRow("search number") << R"({"search":5})"
                                   << "search: must be a string";
    QTest::newRow("consistency weak")
        << R"({"consistency":"weak"})"
        << R"(consistency must be "strong" when present (got "weak"))";
    QTest::newRow("consistency upper")
        << R"({"consistency":"STRONG"})"
        << R"(consistency must be "strong" when present (got "STRONG"))";
    QTest::newRow("consistency number") << R"({"consistency":1})"
                                        << R"(consistency must be "strong" when present (got 1))";
    QTest::newRow("before_id without until") << R"({"before_id":")" + id + R"("})"
                                             << "before_id requires until to be set";
    QTest::newRow("before_id short") << R"({"until":5,"before_id":"abc"})"
                                     << "before_id must be a 64-character hex event id";
    QTest::newRow("before_id not hex") << R"({"until":5,"before_id":")" + QString(64, 'z') + R"("})"
                                       << "before_id must be a 64-character hex event id";
    QTest::newRow("after_id without since") << R"({"after_id":")" + id + R"("})"
                                            << "after_id requires since to be set";
    QTest::newRow("after_id number") << R"({"since":5,"after_id":5})"
                                     << "after_id must be a 64-character hex event id";
    QTest::newRow("depth_limit negative") << R"({"depth_limit":-1})"
                                          << "depth_limit: must be a non-negative 32-bit integer";
    QTest::newRow("depth_limit too big") << R"({"depth_limit":4294967296})"
                                         << "depth_limit: must be a non-negative 32-bit integer";
}

void TestNostrFilter::rejectsBadFields()
{
    QFETCH(QString, json);
    QFETCH(QString, error);
    const Expected<Filter> filter = Filter::fromJson(json.toStdString());
    QVERIFY(!filter.hasValue());
    QCOMPARE(QString::fromStdString(filter.error()), error);
}

void TestNostrFilter::extensionFields()
{
    const Filter strong = parse(R"({"kinds":[40100],"consistency":"strong"})");
    QVERIFY(strong.isStrong());
    QCOMPARE(strong.consistency, Filter::Consistency::Strong);

    // The cursor may be copied in either case; it is kept in the lower-case wire form.
    const Filter page = parse(R"({"until":100,"before_id":")"
                              + QString::fromStdString(kIdA).toUpper().toStdString() + R"("})");
    QCOMPARE(page.beforeId, std::optional(kIdA));
    QCOMPARE(page.until, std::optional<std::int64_t>(100));

    const Filter forward = parse(R"({"since":100,"after_id":")" + kIdB + R"("})");
    QCOMPARE(forward.afterId, std::optional(kIdB));

    const Filter thread = parse(R"({"#e":[")" + kIdA + R"("],"depth_limit":3})");
    QCOMPARE(thread.depthLimit, std::optional(3));

    // Extensions do not take part in matching.
    const Event event = makeEvent(kIdB, kAlice, 40100, 150, {});
    QVERIFY(strong.matches(event));
    QVERIFY(forward.matches(event));
}

void TestNostrFilter::matching_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<bool>("matches");
    const QString a = QString::fromStdString(kIdA);
    const QString alice = QString::fromStdString(kAlice);
    const QString bob = QString::fromStdString(kBob);
    const QString channel = QString::fromStdString(kChannel);
    // The event: id A, author alice, kind 9, created_at 100, tags h=channel, e=B, p=bob, t=x.
    QTest::newRow("empty filter") << "{}" << true;
    QTest::newRow("ids hit") << R"({"ids":[")" + a + R"("]})" << true;
    QTest::newRow("ids miss") << R"({"ids":[")" + QString::fromStdString(kIdB) + R"("]})" << false;
    QTest::newRow("ids empty") << R"({"ids":[]})" << false;
    QTest::newRow("authors hit") << R"({"authors":[")" + bob + R"(",")" + alice + R"("]})" << true;
    QTest::newRow("authors miss") << R"({"authors":[")" + bob + R"("]})" << false;
    QTest::newRow("kinds hit") << R"({"kinds":[1,9]})" << true;
    QTest::newRow("kinds miss") << R"({"kinds":[1]})" << false;
    QTest::newRow("kinds empty") << R"({"kinds":[]})" << false;
    QTest::newRow("since inclusive") << R"({"since":100})" << true;
    QTest::newRow("since after") << R"({"since":101})" << false;
    QTest::newRow("until inclusive") << R"({"until":100})" << true;
    QTest::newRow("until before") << R"({"until":99})" << false;
    QTest::newRow("h hit") << R"({"#h":["other",")" + channel + R"("]})" << true;
    QTest::newRow("h miss") << R"({"#h":["other"]})" << false;
    QTest::newRow("h empty") << R"({"#h":[]})" << false;
    QTest::newRow("two tags both hit")
        << R"({"#h":[")" + channel + R"("],"#p":[")" + bob + R"("]})" << true;
    QTest::newRow("two tags one miss")
        << R"({"#h":[")" + channel + R"("],"#p":[")" + alice + R"("]})" << false;
    QTest::newRow("absent tag name") << R"({"#d":["x"]})" << false;
    QTest::newRow("tag value is element 1 only") << R"({"#e":["marker"]})" << false;
    QTest::newRow("letters are case-sensitive") << R"({"#T":["x"]})" << false;
    QTest::newRow("multi-letter tag names never match #t") << R"({"#t":["long"]})" << false;
    QTest::newRow("search and limit are not conditions") << R"({"search":"zzz","limit":0})" << true;
    QTest::newRow("everything") << R"({"ids":[")" + a + R"("],"authors":[")" + alice
            + R"("],"kinds":[9],"since":100,"until":100,"#t":["x"]})"
                                << true;
}

void TestNostrFilter::matching()
{
    QFETCH(QString, filter);
    QFETCH(bool, matches);
    const Event event = makeEvent(
        kIdA, kAlice, 9, 100,
        {{"h", kChannel}, {"e", kIdB, "", "marker"}, {"p", kBob}, {"t", "x"}, {"tt", "long"}});
    QCOMPARE(parse(filter.toStdString()).matches(event), matches);
}

void TestNostrFilter::serializeRoundTrips()
{
    const std::string json = R"({"#e":[],"#h":[")" + kChannel + R"("],"after_id":")" + kIdB
        + R"(","authors":[")" + kAlice + R"("],"before_id":")" + kIdA
        + R"(","consistency":"strong","depth_limit":2,"ids":[")" + kIdA
        + R"("],"kinds":[40100],"limit":50,"search":"q","since":1,"until":2})";
    const Filter filter = parse(json);
    QCOMPARE(filter.toJson(), json);
    QCOMPARE(parse(filter.toJson()).toJson(), json);
    QCOMPARE(Filter().toJson(), std::string("{}"));
    // Absent stays absent; an empty list stays an empty list.
    QCOMPARE(parse(R"({"kinds":[]})").toJson(), std::string(R"({"kinds":[]})"));
}

void TestNostrFilter::listParsing()
{
    const Expected<std::vector<Filter>> filters =
        Filter::listFromJson(R"([{"kinds":[1]},{"#h":["x"],"limit":2}])");
    QVERIFY(filters.hasValue());
    QCOMPARE(filters->size(), std::size_t(2));
    QCOMPARE(filters->at(1).limit, std::optional(2));
    QCOMPARE(Filter::listFromJson("[]")->size(), std::size_t(0));
    QCOMPARE(Filter::listFromJson(R"([{"kinds":[1]},{"before_id":"x"}])").error(),
             std::string("filter 1: before_id requires until to be set"));
    QCOMPARE(Filter::listFromJson(R"({"kinds":[1]})").error(),
             std::string("filters: must be a JSON array of filter objects"));
    QCOMPARE(Filter::listFromJson("[").error(), std::string("filters: invalid JSON"));
}

void TestNostrFilter::singleChannel()
{
    QCOMPARE(parse(R"({"#h":["a"]})").singleChannel(), std::optional<std::string>("a"));
    QCOMPARE(parse(R"({"#h":["a","b"]})").singleChannel(), std::nullopt);
    QCOMPARE(parse(R"({"#e":["a"]})").singleChannel(), std::nullopt);
}

QTEST_GUILESS_MAIN(TestNostrFilter)
#include "test_nostr_filter.moc"
