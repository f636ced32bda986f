#include "canvas/AncestryWalk.h"

#include <QTest>

using buzz::canvas::CanvasRevision;
using buzz::canvas::canvasWriteSurvived;

namespace {

QString id(char c)
{
    return QString(64, QLatin1Char(c));
}

CanvasRevision rev(char c, std::optional<QString> expected)
{
    CanvasRevision revision;
    revision.eventId = id(c);
    revision.expectedRevision = std::move(expected);
    return revision;
}

} // namespace

class TestAncestry : public QObject
{
    Q_OBJECT

private slots:
    void headIsOurs() { QVERIFY(canvasWriteSurvived({rev('a', QStringLiteral("none"))}, id('a'))); }

    void transitiveDescendantCountsAsSurvived()
    {
        // C → B → A (ours), newest first.
        const std::vector<CanvasRevision> chain {rev('c', id('b')), rev('b', id('a')),
                                                 rev('a', QStringLiteral("none"))};
        QVERIFY(canvasWriteSurvived(chain, id('a')));
    }

    void linksCompareCaseInsensitively()
    {
        const std::vector<CanvasRevision> chain {rev('c', id('b').toUpper()), rev('b', id('a'))};
        QVERIFY(canvasWriteSurvived(chain, id('a').toUpper()));
    }

    void untaggedHeadBreaksTheChain()
    {
        const std::vector<CanvasRevision> chain {rev('c', std::nullopt),
                                                 rev('a', QStringLiteral("none"))};
        QVERIFY(!canvasWriteSurvived(chain, id('a')));
    }

    void siblingOnSameBaseIsNotSurvival()
    {
        // Both B and A were based on 0; B is head.
        const std::vector<CanvasRevision> chain {rev('b', id('0')), rev('a', id('0')),
                                                 rev('0', QStringLiteral("none"))};
        QVERIFY(!canvasWriteSurvived(chain, id('a')));
    }

    void cyclesAndEmptySlicesFailSafe()
    {
        const std::vector<CanvasRevision> cycle {rev('c', id('b')), rev('b', id('c'))};
        QVERIFY(!canvasWriteSurvived(cycle, id('a')));
        QVERIFY(!canvasWriteSurvived({}, id('a')));
    }

    void leavingTheSliceFailsUnlessTheLinkIsOurs()
    {
        QVERIFY(!canvasWriteSurvived({rev('c', id('b'))}, id('a')));
        QVERIFY(canvasWriteSurvived({rev('c', id('a'))}, id('a')));
    }

    void hopLimitIsRespected()
    {
        std::vector<CanvasRevision> chain;
        for (int i = 300; i > 0; --i) {
            CanvasRevision revision;
            revision.eventId = QStringLiteral("%1").arg(i, 64, 10, QLatin1Char('0'));
            revision.expectedRevision = QStringLiteral("%1").arg(i - 1, 64, 10, QLatin1Char('0'));
            chain.push_back(revision);
        }
        const QString deep = QStringLiteral("%1").arg(1, 64, 10, QLatin1Char('0'));
        const QString near = QStringLiteral("%1").arg(200, 64, 10, QLatin1Char('0'));
        QVERIFY(canvasWriteSurvived(chain, near, 256));
        QVERIFY(!canvasWriteSurvived(chain, deep, 256));
    }
};

QTEST_GUILESS_MAIN(TestAncestry)
#include "test_ancestry.moc"
