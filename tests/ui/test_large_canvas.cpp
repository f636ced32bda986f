// Large canvases and Markdown rendering: the editor shows the size against the relay's 256 KiB cap
// while typing, an oversized canvas is refused before anything is sent with a clear message and the
// text kept, a canvas up to the cap is rendered whole and the reader keeps their place when it
// changes, and blockquotes, inline code and table headers look like Markdown readers expect.

#include "UiTestHarness.h"

#include "canvas/CanvasWriteRules.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "ui/CanvasDisplay.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/MarkdownRenderer.h"
#include "ui/NoticeBanner.h"

#include <QAbstractTextDocumentLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

using namespace buzz;
using test::UiTestHarness;

class LargeCanvasTest : public QObject
{
    Q_OBJECT

    static int publishes(desktop::DesktopSession *session)
    {
        int count = 0;
        for (const auto &entry : session->services().connection->requestLog()->entries())
            count += entry.method == QLatin1String("POST /events") ? 1 : 0;
        return count;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sizeAgainstTheCapAndOversizedSaveRefused()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("big")));
        auto *window = alice->window();
        auto *pane = window->canvasPane();
        pane->startEditing();
        QTRY_VERIFY(pane->isEditing());
        auto *size = window->findChild<QLabel *>(QStringLiteral("canvasSizeLabel"));
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QVERIFY(size && editor && size->isVisible());
        QTest::keyClicks(editor, QStringLiteral("hello"));
        QTRY_COMPARE(size->text(), QStringLiteral("5 bytes of 256 KiB"));
        // The bytes a save sends (UTF-8 of the editor's plain text: a no-break space and a line
        // separator go as one byte each), counted without copying the document.
        editor->setPlainText(QString::fromUtf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xc2\xa0x\n")
                             + QChar(QChar::LineSeparator) + QStringLiteral("two lines"));
        QCOMPARE(editor->toPlainText().toUtf8().size(), 22);
        QTRY_COMPARE(size->text(), QStringLiteral("22 bytes of 256 KiB"));

        // Over the cap by a little: the label says so after a pause in typing.
        const QString huge = QString(canvas::CanvasWriteRules::kMaxContentBytes, QLatin1Char('x'));
        editor->setPlainText(huge + QStringLiteral("\nmore words"));
        QTRY_VERIFY(size->text().contains(QStringLiteral("over the relay's limit")));

        const int before = publishes(alice);
        pane->save();
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("saveNotice"));
        QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible(), 10000);
        QVERIFY2(notice->text().startsWith(QStringLiteral("Not saved: this canvas is 256")),
                 qPrintable(notice->text()));
        QVERIFY(notice->text().contains(QStringLiteral("your text stays in the editor")));
        QVERIFY(!notice->text().contains(QStringLiteral("invalid:"))); // not the raw relay string
        QCOMPARE(publishes(alice), before); // nothing was sent
        QVERIFY(pane->isEditing());
        QCOMPARE(editor->toPlainText(),
                 huge + QStringLiteral("\nmore words")); // not a word lost

        // Shortened, it saves.
        editor->setPlainText(QStringLiteral("short again\n"));
        pane->save();
        QVERIFY(UiTestHarness::waitSaved(pane));
        QCOMPARE(pane->head()->content, QStringLiteral("short again\n"));
    }

    // A canvas near the relay's 256 KiB cap: "## Section N" and a paragraph, N = 1, 2, ...
    static QString sections(int kib)
    {
        QString text;
        for (int n = 1; text.size() < kib * 1024; ++n)
            text += QStringLiteral("## Section %1\n\nSome *emphasis*, a [link](https://x.y) and "
                                   "`code` in the words about part %1.\n\n")
                        .arg(n);
        return text;
    }

    void largeCanvasIsRenderedWhole()
    {
        // Up to the cap, a canvas shows rendered (it once showed as source above 48 KiB): every
        // section is there, headings as headings, from the first to the last.
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("manual")));
        const QString text = sections(200);
        QVERIFY(UiTestHarness::seedRevision(alice, text));
        auto *window = alice->window();
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isVisible() && !view->document()->isEmpty(), 10000);
        QVERIFY(!window->findChild<QPlainTextEdit *>(QStringLiteral("canvasSourceView")));
        const QTextDocument *document = view->document();
        QCOMPARE(document->firstBlock().text(), QStringLiteral("Section 1"));
        QCOMPARE(document->firstBlock().blockFormat().headingLevel(), 2);
        const int last = int(text.count(QStringLiteral("## Section ")));
        const QTextBlock lastHeading =
            document->find(QStringLiteral("Section %1").arg(last)).block();
        QVERIFY(lastHeading.isValid());
        QCOMPARE(lastHeading.blockFormat().headingLevel(), 2);
        QVERIFY(!document->toPlainText().contains(QStringLiteral("## ")));
    }

    void readerKeepsTheirPlaceWhenTheCanvasChanges()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("handbook")));
        const QString text = sections(120);
        QVERIFY(UiTestHarness::seedRevision(alice, text));
        auto *window = alice->window();
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isVisible() && !view->document()->isEmpty(), 10000);
        const auto topBlockText = [view] {
            return view->cursorForPosition(QPoint(0, 0)).block().text();
        };
        // The reader scrolls to section 300 ...
        const QTextBlock target = view->document()->find(QStringLiteral("Section 300")).block();
        QVERIFY(target.isValid());
        view->verticalScrollBar()->setValue(
            int(view->document()->documentLayout()->blockBoundingRect(target).top()));
        QTRY_VERIFY(topBlockText().contains(QStringLiteral("part 300"))
                    || topBlockText() == QStringLiteral("Section 300"));
        // ... when someone changes the first section: the view still shows section 300.
        QString changed = text;
        changed.replace(QStringLiteral("about part 1.\n"), QStringLiteral("about part one.\n"));
        QVERIFY(UiTestHarness::seedRevision(alice, changed));
        QTRY_VERIFY_WITH_TIMEOUT(
            view->document()->toPlainText().contains(QStringLiteral("about part one.")), 10000);
        const QString top = topBlockText();
        QVERIFY2(top.contains(QStringLiteral("part 300")) || top == QStringLiteral("Section 300"),
                 qPrintable(top));
    }

    void largeCanvasSaveKeepsTheEditorAndRenders()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("handbook")));
        QVERIFY(UiTestHarness::seedRevision(alice, sections(64)));
        auto *window = alice->window();
        auto *pane = window->canvasPane();
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isVisible() && !view->document()->isEmpty(), 10000);

        // Edit at the end and save with Ctrl+S: the editor stays open where the caret was.
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY(editor->hasFocus());
        editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor, QStringLiteral("Closing words."));
        const int caret = editor->textCursor().position();
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        auto *saveState = window->findChild<QLabel *>(QStringLiteral("saveStateLabel"));
        QTRY_COMPARE_WITH_TIMEOUT(saveState->text(), QStringLiteral("Saved"), 10000);
        QVERIFY(pane->isEditing());
        QVERIFY(editor->isVisible());
        QCOMPARE(editor->textCursor().position(), caret);

        // Leaving the editor shows the canvas rendered, with the saved words.
        QTest::keyClick(editor, Qt::Key_Escape);
        QTRY_VERIFY(!pane->isEditing());
        QTRY_VERIFY(view->isVisible());
        QVERIFY(view->toPlainText().contains(QStringLiteral("Closing words.")));
    }

    void textOverTheCapShowsAsPlainText()
    {
        // Only a relay that ignores the cap sends more; its import would hold the window.
        ui::CanvasDisplay display(new ui::CanvasEditor); // the display's page from now on
        const QString text = sections(300);
        QVERIFY(canvas::CanvasWriteRules::utf8Size(text)
                > canvas::CanvasWriteRules::kMaxContentBytes);
        display.showContent(text);
        auto *view = display.findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QCOMPARE(display.currentWidget(), view);
        QCOMPARE(view->toPlainText(), text); // the source as it is, "## " and all
        display.showContent(sections(8));
        QCOMPARE(view->document()->firstBlock().blockFormat().headingLevel(), 2);
    }

    void largeImportsRunBesideTheWindow()
    {
        // Above 16 KiB the import runs on a worker: what is shown stays until the new document is
        // ready, and a newer text always wins over an import still running.
        ui::CanvasDisplay display(new ui::CanvasEditor);
        auto *view = display.findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QSignalSpy shown(&display, &ui::CanvasDisplay::contentShown);
        const QString first = QStringLiteral("# First\n\n") + sections(40);
        display.showContent(first);
        QVERIFY(display.isImporting());
        QVERIFY(shown.wait(10000));
        QCOMPARE(view->document()->firstBlock().text(), QStringLiteral("First"));

        const QString second = QStringLiteral("# Second\n\n") + sections(40);
        display.showContent(second);
        QVERIFY(display.isImporting());
        QCOMPARE(view->document()->firstBlock().text(), QStringLiteral("First")); // until ready
        // A small text overtakes it at once; the second's import is dropped when it reports.
        display.showContent(QStringLiteral("# Small\n"));
        QVERIFY(!display.isImporting());
        QCOMPARE(shown.count(), 2);
        QCOMPARE(view->document()->firstBlock().text(), QStringLiteral("Small"));
        const QString third = QStringLiteral("# Third\n\n") + sections(40);
        display.showContent(third);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 3, 10000);
        QCOMPARE(view->document()->firstBlock().text(), QStringLiteral("Third"));
        QVERIFY(!display.isImporting());
        QCOMPARE(shown.count(), 3); // the second never replaced anything
    }

    void markdownLooksLikeMarkdown()
    {
        QTextDocument document;
        const QPalette palette;
        ui::MarkdownRenderer::render(&document,
                                     QStringLiteral("Use `git status` here.\n\n"
                                                    "> quoted wisdom\n\n"
                                                    "| Name | Count |\n"
                                                    "|:-----|------:|\n"
                                                    "| a    | 12    |\n"),
                                     palette);
        bool sawCode = false;
        bool sawQuote = false;
        for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
            if (block.text().contains(QStringLiteral("quoted wisdom"))) {
                sawQuote = true;
                const QTextBlockFormat format = block.blockFormat();
                QVERIFY(format.background().style() != Qt::NoBrush); // not a bare indent
            }
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (it.fragment().text() == QStringLiteral("git status")) {
                    // Marked as code; that its glyphs advance equally, whichever fonts are
                    // installed, is test_ui_monospace_font's.
                    sawCode = it.fragment().charFormat().fontFixedPitch();
                }
            }
        }
        QVERIFY(sawCode && sawQuote);

        QTextTable *table = nullptr;
        for (QTextFrame *frame : document.rootFrame()->childFrames())
            table = table ? table : qobject_cast<QTextTable *>(frame);
        QVERIFY(table);
        QCOMPARE(table->format().headerRowCount(), 1);
        for (int column = 0; column < 2; ++column) {
            const Qt::Alignment header =
                table->cellAt(0, column).firstCursorPosition().blockFormat().alignment()
                & Qt::AlignHorizontal_Mask;
            const Qt::Alignment body =
                table->cellAt(1, column).firstCursorPosition().blockFormat().alignment()
                & Qt::AlignHorizontal_Mask;
            QCOMPARE(int(header), int(body ? body : Qt::AlignLeft));
        }
        QCOMPARE(int(table->cellAt(0, 1).firstCursorPosition().blockFormat().alignment()
                     & Qt::AlignHorizontal_Mask),
                 int(Qt::AlignRight));
    }
};

QTEST_MAIN(LargeCanvasTest)
#include "test_large_canvas.moc"
