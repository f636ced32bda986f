// Translations (issue 19): with LANGUAGE=de (set for this test by ctest) the app loads its German
// catalogue and Qt's own, and the main window speaks German — menus, canvas, status, tooltips with
// German key names, Qt's standard buttons; the German catalogue has no unfinished message.

#include "UiTestHarness.h"

#include "app/desktop/Translations.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class TranslationsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(qgetenv("LANGUAGE").startsWith("de"), "ctest runs this test with LANGUAGE=de");
        QCOMPARE(desktop::Translations::install(), QStringLiteral("de"));
    }

    void theMainWindowIsGerman()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("deutsch"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("allgemein")));
        auto *window = session->window();

        QStringList menus;
        for (QAction *menu : window->menuBar()->actions())
            menus << menu->text();
        QCOMPARE(menus,
                 (QStringList {QStringLiteral("&Datei"), QStringLiteral("&Canvas"),
                               QStringLiteral("&Ansicht"), QStringLiteral("&Hilfe")}));
        auto *state = window->findChild<QLabel *>(QStringLiteral("canvasStateLabel"));
        QTRY_COMPARE(state->text(), QStringLiteral("Für diesen Kanal ist keine Canvas angelegt."));
        QCOMPARE(window->findChild<QPushButton *>(QStringLiteral("editButton"))->text(),
                 QStringLiteral("Canvas anlegen"));
        QTRY_VERIFY(window->findChild<QLabel *>(QStringLiteral("relayStatusLabel"))
                        ->text()
                        .endsWith(QStringLiteral("Verbunden")));
        QCOMPARE(window->historyDock()->windowTitle(), QStringLiteral("Verlauf"));
        // Qt's own catalogue: key names in tooltips ("Strg", not "Ctrl").
        QCOMPARE(window->findChild<QAction *>(QStringLiteral("saveAction"))->toolTip(),
                 QStringLiteral("Canvas speichern (Strg+S)"));
        // Dates follow the UI's language.
        QCOMPARE(QLocale().language(), QLocale::German);
        // Part A's widgets speak German too.
        QCOMPARE(window->findChild<QPushButton *>(QStringLiteral("leaveChannelButton"))->text(),
                 QStringLiteral("Verlassen …"));
    }

    void timesAndSizesFollowTheUiLanguage()
    {
        const qint64 october = QDateTime(QDate(2026, 10, 14), QTime(9, 30)).toSecsSinceEpoch();
        const qint64 now = october + 300;
        QCOMPARE(ui::UiFormat::locale().language(), QLocale::German);
        QVERIFY2(ui::UiFormat::revisionTime(october).contains(QStringLiteral("Okt")),
                 qPrintable(ui::UiFormat::revisionTime(october)));
        QCOMPARE(ui::UiFormat::relativeTime(october, now), QStringLiteral("vor 5 Min."));
        QCOMPARE(ui::UiFormat::relativeTime(now - 10, now), QStringLiteral("gerade eben"));
        QCOMPARE(ui::UiFormat::sizeSummary(QStringLiteral("a\nb\n")),
                 QStringLiteral("3 Zeilen · 4 B"));

        // An English UI on a German system: English dates and wording.
        QCOMPARE(desktop::Translations::install(QLocale(QLocale::English, QLocale::Germany)),
                 QStringLiteral("en"));
        const QString english = ui::UiFormat::revisionTime(october);
        const QString englishAgo = ui::UiFormat::relativeTime(october, now);
        const QString englishLines = ui::UiFormat::sizeSummary(QStringLiteral("a\nb"));
        QCOMPARE(desktop::Translations::install(), QStringLiteral("de"));
        QVERIFY2(english.contains(QStringLiteral("Oct")), qPrintable(english));
        QCOMPARE(englishAgo, QStringLiteral("5 min ago"));
        QCOMPARE(englishLines, QStringLiteral("2 lines · 3 B"));
    }

    void qtStandardButtonsAreGermanToo()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("knoepfe"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("knoepfe")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("eins\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("zwei\n")));
        auto *window = session->window();
        window->historyDock()->show();
        QTRY_COMPARE_WITH_TIMEOUT(window->historyPanel()->model()->rowCount(), 2, 10000);
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        list->setCurrentIndex(list->model()->index(1, 0));
        auto *restore = window->findChild<QPushButton *>(QStringLiteral("restoreButton"));
        QTRY_VERIFY(restore->isEnabled());
        QCOMPARE(restore->text(), QStringLiteral("Diese Revision wiederherstellen"));
        QTest::mouseClick(restore, Qt::LeftButton);
        QWidget *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog"));
        QVERIFY(dialog);
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Diese Revision wiederherstellen?"));
        QString cancel =
            dialog->findChild<QPushButton *>(QStringLiteral("restoreCancelButton"))->text();
        QVERIFY2(cancel.remove(QLatin1Char('&')) == QStringLiteral("Abbrechen"),
                 qPrintable(cancel));
        dialog->close();
    }

    void theGermanCatalogueIsComplete()
    {
        QFile ts(QStringLiteral(BUZZ_SOURCE_DIR "/translations/buzz-canvas_de.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QByteArray xml = ts.readAll();
        QVERIFY(xml.contains("language=\"de\""));
        QVERIFY(xml.count("<message") > 300);
        QCOMPARE(xml.count("type=\"unfinished\""), 0);
        QCOMPARE(xml.count("type=\"vanished\""), 0);
        QCOMPARE(xml.count("type=\"obsolete\""), 0);
    }
};

QTEST_MAIN(TranslationsTest)
#include "test_translations.moc"
