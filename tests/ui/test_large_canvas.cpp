// Large canvases and Markdown rendering: the editor shows the size against the relay's 256 KiB cap
// while typing, an oversized canvas is refused before anything is sent with a clear message and the
// text kept, a canvas over 48 KB says why it shows as source (and renders on request), and
// blockquotes, inline code and table headers look like Markdown readers expect.

#include "UiTestHarness.h"

#include "canvas/CanvasWriteRules.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/MarkdownRenderer.h"
#include "ui/NoticeBanner.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
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

    void largeCanvasSaysWhyItShowsSource()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("manual")));
        QString text;
        while (text.size() <= ui::CanvasEditor::kRenderLimit)
            text += QStringLiteral("## Section\n\nSome *emphasis* and a [link](https://x.y).\n\n");
        QVERIFY(UiTestHarness::seedRevision(alice, text));
        auto *window = alice->window();
        auto *notice = window->findChild<QLabel *>(QStringLiteral("canvasSourceNotice"));
        QTRY_VERIFY_WITH_TIMEOUT(notice && notice->isVisible(), 10000);
        QVERIFY2(notice->text().contains(QStringLiteral("shown as Markdown source")),
                 qPrintable(notice->text()));
        QVERIFY(notice->text().contains(QStringLiteral("48 KiB")));
        auto *source = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasSourceView"));
        QCOMPARE(source->toPlainText(), text);
        QTest::mouseClick(window->findChild<QPushButton *>(QStringLiteral("renderCanvasButton")),
                          Qt::LeftButton);
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY(view->isVisible());
        QVERIFY(view->toPlainText().startsWith(QStringLiteral("Section")));
    }

    void renderAnywaySurvivesASave()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("handbook")));
        QString text;
        while (text.size() <= ui::CanvasEditor::kRenderLimit)
            text += QStringLiteral("## Part\n\nPlain words about the part.\n\n");
        QVERIFY(UiTestHarness::seedRevision(alice, text));
        auto *window = alice->window();
        auto *pane = window->canvasPane();
        auto *render = window->findChild<QPushButton *>(QStringLiteral("renderCanvasButton"));
        QTRY_VERIFY_WITH_TIMEOUT(render->isVisible(), 10000);
        QTest::mouseClick(render, Qt::LeftButton);
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY(view->isVisible());

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

        // Leaving the editor shows the canvas rendered, as the user asked, not the source again.
        QTest::keyClick(editor, Qt::Key_Escape);
        QTRY_VERIFY(!pane->isEditing());
        QTRY_VERIFY(view->isVisible());
        QVERIFY(!render->isVisible());
        QVERIFY(view->toPlainText().contains(QStringLiteral("Closing words.")));
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
