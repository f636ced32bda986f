// The desktop app against a hostile relay (issue 26): what the relay returns is someone else's
// text at best and a forgery at worst. The app opens the canvas a member saved without reading a
// local file, and never shows what it cannot verify.

#include "HostileRelay.h"
#include "UiTestHarness.h"

#include "canvas/Identity.h"
#include "net/nostr/Kinds.h"
#include "net/nostr/Nip19.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/HistoryModel.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUuid>

using namespace buzz;
using buzz::test::HostileRelay;

namespace {

const QString kChannel = QStringLiteral("5d1c2e2a-7a51-4b7e-9a55-0c1f3f5e9a01");

qint64 now()
{
    return QDateTime::currentSecsSinceEpoch();
}

nostr::Event canvasRevision(const nostr::SecretKey &key, const QString &channel, qint64 createdAt,
                            const std::string &content)
{
    return key.signedEvent(nostr::kinds::kCanvas, createdAt,
                           {{"h", channel.toStdString()}, {"expected-revision", "none"}}, content);
}

nostr::Event profile(const nostr::SecretKey &key, qint64 createdAt, const QString &displayName)
{
    const QJsonObject content {{QStringLiteral("display_name"), displayName}};
    return key.signedEvent(nostr::kinds::kProfile, createdAt, {},
                           QJsonDocument(content).toJson(QJsonDocument::Compact).toStdString());
}

QString shortNpub(const nostr::SecretKey &key)
{
    return QString::fromStdString(nostr::nip19::shortNpub(key.publicKeyHex()));
}

bool isCanvasQuery(const HostileRelay::Request &request)
{
    for (const nostr::Filter &filter : request.filters) {
        if (filter.kinds && filter.kinds->size() == 1
            && filter.kinds->front() == nostr::kinds::kCanvas)
            return true;
    }
    return false;
}

QTextBrowser *canvasView(desktop::DesktopSession *session)
{
    return session->window()->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
}

} // namespace

class TestHostileApp : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void canvasNeverMakesTheAppReadLocalFiles();
    void forgedRevisionsAreNeverShown();
    void memberNamedLikeTheUserShowsTheirNpub_data();
    void memberNamedLikeTheUserShowsTheirNpub();
    void repeatedHistoryPageEndsLoadOlder();
    void oversizedMessageIsNamedAsTheRelays();

private:
    desktop::DesktopSession *openOnRelay();

    std::unique_ptr<test::UiTestHarness> m_harness;
    std::unique_ptr<HostileRelay> m_relay;
    std::optional<nostr::SecretKey> m_bob;
};

void TestHostileApp::init()
{
    m_harness = std::make_unique<test::UiTestHarness>();
    QVERIFY(m_harness->isValid());
    m_relay = std::make_unique<HostileRelay>();
    QVERIFY(m_relay->listen());
    m_relay->addOpenChannel(kChannel, QStringLiteral("hostile"), now() - 600);
    m_bob.emplace(nostr::SecretKey::generate());
}

void TestHostileApp::cleanup()
{
    m_harness.reset();
    m_relay.reset();
}

desktop::DesktopSession *TestHostileApp::openOnRelay()
{
    auto *session = m_harness->openSessionOn(QStringLiteral("alice"), m_relay->wsUrl());
    if (!session)
        return nullptr;
    if (!test::UiTestHarness::openChannel(session, kChannel))
        return nullptr;
    return session;
}

// Item 10: a member saved Markdown that names local files: the endless /dev/zero (the app
// allocated until it aborted, and again at every start, since it reopens the last channel), an
// image by absolute path and one relative to the working directory. The app opens the canvas,
// shows its text, and none of the files is read.
void TestHostileApp::canvasNeverMakesTheAppReadLocalFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QImage local(40, 30, QImage::Format_RGB32);
    local.fill(Qt::red);
    const QString absolute = dir.filePath(QStringLiteral("secret.png"));
    QVERIFY(local.save(absolute));
    // The inline HTML comes last: Qt's Markdown import drops whatever follows an HTML block.
    const std::string markdown = "# Plan\n\n![z](file:///dev/zero)\n\n![a]("
        + absolute.toStdString() + ")\n\nThe end.\n\n<img src=\"" + absolute.toStdString()
        + "\">\n";
    m_relay->add(canvasRevision(*m_bob, kChannel, now() - 60, markdown));

    auto *session = openOnRelay();
    QVERIFY(session);
    QTextBrowser *view = canvasView(session);
    QVERIFY(view);
    QTRY_VERIFY2_WITH_TIMEOUT(view->toPlainText().contains(QStringLiteral("The end.")),
                              qPrintable(view->toPlainText()), 20000);
    QVERIFY(view->document()->size().isValid()); // laid out: every image asked for
    QVERIFY(!view->viewport()->grab().isNull());
    for (const QString &name :
         {QStringLiteral("file:///dev/zero"), absolute, QUrl::fromLocalFile(absolute).toString()}) {
        const QVariant shown = view->document()->resource(QTextDocument::ImageResource, QUrl(name));
        QImage image = shown.value<QImage>();
        if (shown.userType() == QMetaType::QByteArray)
            image.loadFromData(shown.toByteArray());
        QVERIFY2(image.size() != local.size(), qPrintable(name));
    }
}

// Item 11: the relay answers every canvas read with a newer revision "by" Carol that Carol never
// signed (a signature of f's) and one with Bob's signature over other words, and slips forged
// revisions into the live subscription. The app shows only what Bob signed, and Diagnostics
// counts what it dropped.
void TestHostileApp::forgedRevisionsAreNeverShown()
{
    const nostr::Event genuine =
        canvasRevision(*m_bob, kChannel, now() - 60, "Genuine canvas text\n");
    m_relay->add(genuine);
    const nostr::Event forged = test::Forge::forgedSignature(
        canvasRevision(*m_bob, kChannel, now() - 5, "FORGED canvas text\n"), std::string(64, 'c'));
    const nostr::Event altered = test::Forge::alteredContent(
        canvasRevision(*m_bob, kChannel, now() - 6, "Bob's words\n"), "FORGED words\n");
    HostileRelay *relay = m_relay.get();
    m_relay->setHttpScript(
        [relay, forged,
         altered](const HostileRelay::Request &request) -> std::optional<HostileRelay::HttpAnswer> {
            if (request.path != "/query" || !isCanvasQuery(request))
                return std::nullopt;
            std::vector<nostr::Event> answer {forged, altered};
            for (const nostr::Event &event : relay->honestAnswer(request.filters))
                answer.push_back(event);
            HostileRelay::HttpAnswer scripted;
            scripted.body = HostileRelay::eventsJson(answer);
            return scripted;
        });

    auto *session = openOnRelay();
    QVERIFY(session);
    QTextBrowser *view = canvasView(session);
    QVERIFY(view);
    QTRY_VERIFY2_WITH_TIMEOUT(view->toPlainText().contains(QStringLiteral("Genuine canvas text")),
                              qPrintable(view->toPlainText()), 20000);
    auto *pane = session->window()->canvasPane();
    // The live subscription may deliver the stored head first: wait for the display read too.
    QTRY_VERIFY_WITH_TIMEOUT(!pane->session()->isLoading(), 20000);
    int canvasReads = 0;
    for (const HostileRelay::Request &request : m_relay->requests("/query"))
        canvasReads += isCanvasQuery(request) ? 1 : 0;
    QVERIFY(canvasReads > 0);
    QCoreApplication::processEvents();
    QVERIFY2(!view->toPlainText().contains(QStringLiteral("FORGED")),
             qPrintable(view->toPlainText()));
    QCOMPARE(pane->head()->eventId, QString::fromStdString(genuine.id));

    // Live: two forgeries, then Bob's genuine next revision; only that one shows.
    const QByteArray channel = kChannel.toUtf8();
    QTRY_VERIFY_WITH_TIMEOUT(m_relay->openSubscriptions(channel) > 0, 20000);
    const nostr::Event forgedLive = test::Forge::forgedSignature(
        canvasRevision(*m_bob, kChannel, now(), "FORGED live text\n"), std::string(64, 'c'));
    const nostr::Event next = canvasRevision(*m_bob, kChannel, now(), "Second genuine text\n");
    m_relay->add(next);
    for (const nostr::Event &event : {forgedLive, altered, next})
        QVERIFY(m_relay->sendEventOn(channel, QByteArray::fromStdString(event.toJson())) > 0);
    QTRY_VERIFY2_WITH_TIMEOUT(view->toPlainText().contains(QStringLiteral("Second genuine text")),
                              qPrintable(view->toPlainText()), 20000);
    QVERIFY(!view->toPlainText().contains(QStringLiteral("FORGED")));
    QCOMPARE(pane->head()->eventId, QString::fromStdString(next.id));

    auto *summary =
        session->window()->findChild<QLabel *>(QStringLiteral("diagnosticsSummaryLabel"));
    QVERIFY(summary);
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(QStringLiteral("dropped")),
                              qPrintable(summary->text()), 10000);
}

void TestHostileApp::memberNamedLikeTheUserShowsTheirNpub_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("you") << QStringLiteral("you");
    QTest::newRow("You") << QStringLiteral("You");
    QTest::newRow("YOU, spaced, with a zero-width space") << QStringLiteral(" Y\u200BOU ");
    QTest::newRow("the user's own name") << QStringLiteral("Alice");
    QTest::newRow("you in Cyrillic letters") << QStringLiteral("\u0443\u043Eu");
    QTest::newRow("you.") << QStringLiteral("you.");
    QTest::newRow("the user's name, accented") << QStringLiteral("\u00C1lice");
}

// Item 14: Bob names himself "you", "You" or the user's own name ("Alice") and saves the canvas.
// The header never says "Last edited by you" for him (it did: the name went into "Last edited by
// %1"), and he is shown with his npub, in the header and in History. The user's own revision is
// recognised by key: "Last edited by you".
void TestHostileApp::memberNamedLikeTheUserShowsTheirNpub()
{
    QFETCH(QString, name);
    auto *session = openOnRelay();
    QVERIFY(session);
    const auto alice = session->services().identity->secretKey();
    QVERIFY(alice);
    m_relay->add(profile(*alice, now() - 300, QStringLiteral("Alice")));
    m_relay->add(profile(*m_bob, now() - 300, name));
    m_relay->add(canvasRevision(*m_bob, kChannel, now() - 60, "Bob's plan\n"));
    auto *window = session->window();
    auto *reload = window->findChild<QAction *>(QStringLiteral("reloadAction"));
    QVERIFY(reload);
    reload->trigger(); // the canvas and people's names, read again
    auto *info = window->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
    QVERIFY(info);
    const QString bob = shortNpub(*m_bob);
    QTRY_VERIFY2_WITH_TIMEOUT(
        info->text().startsWith(
            QStringLiteral("Last edited by %1 (%2) · ").arg(name.trimmed(), bob)),
        qPrintable(info->text()), 20000);
    QVERIFY(!info->text().startsWith(QStringLiteral("Last edited by you ·")));

    window->historyDock()->show();
    auto *model = window->historyPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 20000);
    QTRY_VERIFY2_WITH_TIMEOUT(
        model->data(model->index(0), Qt::DisplayRole).toString().contains(bob),
        qPrintable(model->data(model->index(0), Qt::DisplayRole).toString()), 20000);

    // The user's own revision, by key.
    m_relay->add(canvasRevision(*alice, kChannel, now() - 30, "Alice's plan\n"));
    reload->trigger();
    QTRY_VERIFY2_WITH_TIMEOUT(info->text().startsWith(QStringLiteral("Last edited by you · ")),
                              qPrintable(info->text()), 20000);
}

// Item 15: the relay ignores History's cursor and answers "Load older" with the newest page
// again. The list keeps each revision once, "Load older" goes, and the panel says why (it used to
// end without a word, as if history ended there).
void TestHostileApp::repeatedHistoryPageEndsLoadOlder()
{
    for (int i = 0; i < 8; ++i)
        m_relay->add(canvasRevision(*m_bob, kChannel, now() - 100 + i,
                                    "revision " + std::to_string(i) + "\n"));
    HostileRelay *relay = m_relay.get();
    m_relay->setHttpScript(
        [relay](const HostileRelay::Request &request) -> std::optional<HostileRelay::HttpAnswer> {
            if (request.path != "/query" || !isCanvasQuery(request))
                return std::nullopt;
            std::vector<nostr::Filter> uncursored = request.filters;
            for (nostr::Filter &filter : uncursored) {
                filter.until.reset();
                filter.beforeId.reset();
            }
            HostileRelay::HttpAnswer answer;
            answer.body = HostileRelay::eventsJson(relay->honestAnswer(uncursored));
            return answer;
        });
    auto *session = openOnRelay();
    QVERIFY(session);
    auto *window = session->window();
    window->historyPanel()->setPageSize(3);
    window->historyDock()->show();
    auto *model = window->historyPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 20000);
    auto *older = window->findChild<QPushButton *>(QStringLiteral("loadOlderButton"));
    QVERIFY(older);
    QTRY_VERIFY_WITH_TIMEOUT(older->isVisible() && older->isEnabled(), 20000);
    QTest::mouseClick(older, Qt::LeftButton);
    auto *status = window->findChild<QLabel *>(QStringLiteral("historyStatusLabel"));
    QVERIFY(status);
    QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains(QStringLiteral("same revisions again")),
                              qPrintable(status->text()), 20000);
    QCOMPARE(model->rowCount(), 3);
    QVERIFY(!older->isVisible());
}

// Item 12: the relay sends a 40 MiB WebSocket message. The app closes the connection instead of
// taking it in (the client caps messages at 16 MiB), and says so: the relay's doing, not the
// user's network (it said "Can't reach the relay" and added "Check your VPN or network
// connection").
void TestHostileApp::oversizedMessageIsNamedAsTheRelays()
{
    client::RelaySocket::Timing timing;
    timing.initialBackoff = std::chrono::milliseconds(60000); // stay Reconnecting: observable
    auto *session = m_harness->openSessionOn(QStringLiteral("alice"), m_relay->wsUrl(), timing);
    QVERIFY(session);
    QVERIFY(test::UiTestHarness::openChannel(session, kChannel));
    QTRY_VERIFY_WITH_TIMEOUT(m_relay->webSocketClients() > 0, 20000);
    m_relay->sendText(QStringLiteral("[\"NOTICE\",\"") + QString(40 * 1024 * 1024, QLatin1Char('n'))
                      + QStringLiteral("\"]"));
    auto *status = session->window()->findChild<QLabel *>(QStringLiteral("relayStatusLabel"));
    QVERIFY(status);
    QTRY_VERIFY2_WITH_TIMEOUT(status->toolTip().contains(QStringLiteral("over 16 MiB")),
                              qPrintable(status->toolTip()), 30000);
    QVERIFY2(!status->toolTip().contains(QStringLiteral("VPN")), qPrintable(status->toolTip()));
    QVERIFY2(status->toolTip().contains(QStringLiteral("whoever runs the relay")),
             qPrintable(status->toolTip()));
    QVERIFY2(status->text().contains(QStringLiteral("The relay sent more than this app accepts.")),
             qPrintable(status->text()));
}

QTEST_MAIN(TestHostileApp)
#include "test_hostile_app.moc"
