// Translations (issue 19): with LANGUAGE=de (set for this test by ctest) the app loads its German
// catalogue and Qt's own, and the main window speaks German — menus, canvas, status, tooltips with
// German key names, Qt's standard buttons; the German catalogue has no unfinished message. An
// English UI (asked for, or the fallback for a language without a catalogue) loads the English
// plural forms: "1 line", not "1 lines". Your own revision reads "von Ihnen" in the header.

#include "UiTestHarness.h"

#include "app/desktop/Translations.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"
#include "ui/models/SearchResultModel.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QPushButton>
#include <QScopeGuard>
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

    void englishSaysOneLineNotOneLines()
    {
        const auto german = qScopeGuard([] { desktop::Translations::install(); });
        const qint64 october = QDateTime(QDate(2026, 10, 14), QTime(9, 30)).toSecsSinceEpoch();
        for (const QLocale &system :
             {QLocale(QLocale::English, QLocale::Germany), QLocale(QLocale::French)}) {
            QCOMPARE(desktop::Translations::install(system), QStringLiteral("en"));
            QCOMPARE(ui::UiFormat::sizeSummary(QStringLiteral("a")),
                     QStringLiteral("1 line · 1 B"));
            QCOMPARE(ui::UiFormat::sizeSummary(QStringLiteral("a\nb")),
                     QStringLiteral("2 lines · 3 B"));
            QCOMPARE(ui::UiFormat::sizeSummary(QString()), QStringLiteral("0 lines · 0 B"));
            QCOMPARE(ui::UiFormat::relativeTime(october, october + 60),
                     QStringLiteral("1 min ago"));
            QCOMPARE(ui::UiFormat::relativeTime(october, october + 3600),
                     QStringLiteral("1 h ago"));

            // A search row's tooltip counts the revisions that match.
            ui::SearchResultModel results(nullptr);
            ui::SearchResultModel::Hit hit;
            hit.title = QStringLiteral("notes");
            hit.channelId = QStringLiteral("notes");
            hit.pubkey = QString(64, QLatin1Char('a'));
            hit.createdAt = october;
            hit.matchingRevisions = 2;
            results.setHits({hit});
            const QString tip = results.data(results.index(0), Qt::ToolTipRole).toString();
            QVERIFY2(tip.endsWith(QStringLiteral("\n2 matching revisions")), qPrintable(tip));
            QCOMPARE(QCoreApplication::translate("buzz::ui::SearchResultModel",
                                                 "%n matching revisions", nullptr, 1),
                     QStringLiteral("1 matching revision"));
        }
    }

    void theEditorCountsWordsAndLinesInTheUiLanguage()
    {
        const auto german = qScopeGuard([] { desktop::Translations::install(); });
        ui::CanvasEditor editor;
        auto *counts = editor.findChild<QLabel *>(QStringLiteral("canvasCountsLabel"));
        editor.loadText(QStringLiteral("- eins zwei\ndrei"));
        QCOMPARE(counts->text(), QStringLiteral("3 Wörter · 2 Zeilen"));
        editor.loadText(QStringLiteral("eins\n"));
        QCOMPARE(counts->text(), QStringLiteral("1 Wort · 1 Zeile"));
        QCOMPARE(desktop::Translations::install(QLocale(QLocale::English, QLocale::Germany)),
                 QStringLiteral("en"));
        editor.refreshSizeNow();
        QCOMPARE(counts->text(), QStringLiteral("1 word · 1 line"));
    }

    void yourOwnRevisionReadsVonIhnen()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("ihnen"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("ihnen")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("meins\n")));
        auto *window = session->window();
        auto *info = window->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
        // The object of "von" is "Ihnen"; "Sie" stays the name in History's rows.
        QTRY_VERIFY_WITH_TIMEOUT(
            info->text().startsWith(QStringLiteral("Zuletzt bearbeitet von Ihnen · ")), 10000);
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
        QCOMPARE(model->data(model->index(0), ui::HistoryModel::AuthorRole).toString(),
                 QStringLiteral("Sie"));
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

    void theEnglishCatalogueHasEveryPluralForm()
    {
        QFile ts(QStringLiteral(BUZZ_SOURCE_DIR "/translations/buzz-canvas_en.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QByteArray xml = ts.readAll();
        QFile de(QStringLiteral(BUZZ_SOURCE_DIR "/translations/buzz-canvas_de.ts"));
        QVERIFY(de.open(QIODevice::ReadOnly));
        QVERIFY(xml.contains("language=\"en\""));
        // Every %n message of the German catalogue (lupdate over the same sources), and only
        // those, each with its singular and plural written out.
        const qsizetype plurals = de.readAll().count("numerus=\"yes\"");
        QVERIFY(plurals >= 5);
        QCOMPARE(xml.count("numerus=\"yes\""), plurals);
        QCOMPARE(xml.count("<message"), plurals);
        QCOMPARE(xml.count("<numerusform>"), 2 * plurals);
        QCOMPARE(xml.count("<numerusform></numerusform>"), 0);
        QCOMPARE(xml.count("type=\"unfinished\""), 0);
        QCOMPARE(xml.count("type=\"vanished\""), 0);
    }
};

QTEST_MAIN(TranslationsTest)
#include "test_translations.moc"
