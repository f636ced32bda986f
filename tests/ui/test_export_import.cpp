// Export, print and import (issue 31 item 8). The canvas is written as Markdown (exactly its
// text), HTML and PDF; nothing a canvas names is fetched or read while exporting, and the exported
// HTML names no image and no link other than web, mail and #anchors. A Markdown file imports into
// the editor as an unsaved edit that one Undo takes back.

#include "UiTestHarness.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

namespace {

constexpr int kTimeout = 30000;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool chooseFile(const QString &dialogName, const QString &path)
{
    auto *dialog =
        qobject_cast<QFileDialog *>(UiTestHarness::waitForTopLevel(dialogName, kTimeout));
    if (!dialog)
        return false;
    dialog->selectFile(path);
    static_cast<QDialog *>(dialog)->accept(); // public in QDialog, the file dialog's own
    return true;
}

} // namespace

class ExportImportTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportAsMarkdownHtmlAndPdf()
    {
        QTcpServer remote; // an image "on the web": nothing may connect
        QVERIFY(remote.listen(QHostAddress::LocalHost));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString text =
            QStringLiteral("# Title\n\nText with [web](https://example.org), [mail](mailto:a@b.c), "
                           "[bad](javascript:alert(1)) and [local](file:///etc/hostname).\n\n"
                           "![pic](file:///dev/zero) ![remote](http://127.0.0.1:%1/x.png)\n")
                .arg(remote.serverPort());
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("exporter"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("notes")));
        QVERIFY(UiTestHarness::seedRevision(session, text));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_COMPARE_WITH_TIMEOUT(pane->head() ? pane->head()->content : QString(), text, kTimeout);
        const auto action = [window](const char *name) {
            return window->findChild<QAction *>(QLatin1String(name));
        };

        action("exportMarkdownAction")->trigger();
        QVERIFY(chooseFile(QStringLiteral("exportFileDialog"), dir.filePath("notes.md")));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(dir.filePath("notes.md")), text.toUtf8(), kTimeout);

        action("exportHtmlAction")->trigger();
        QVERIFY(chooseFile(QStringLiteral("exportFileDialog"), dir.filePath("notes.html")));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath("notes.html")), kTimeout);
        const QByteArray html = readAll(dir.filePath("notes.html"));
        QVERIFY(html.contains("Title"));
        QVERIFY(html.contains("href=\"https://example.org\""));
        QVERIFY(html.contains("href=\"mailto:a@b.c\""));
        QVERIFY2(!html.contains("javascript:"), html.constData());
        QVERIFY(!html.contains("href=\"file:"));
        QVERIFY(!html.contains("<img"));
        QVERIFY(html.contains("[image: file:///dev/zero]"));

        action("exportPdfAction")->trigger();
        QVERIFY(chooseFile(QStringLiteral("exportFileDialog"), dir.filePath("notes.pdf")));
        QTRY_VERIFY_WITH_TIMEOUT(readAll(dir.filePath("notes.pdf")).startsWith("%PDF"), kTimeout);
        QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("notes.pdf")));

        // Print asks first (Qt's print dialog); closing it prints nothing.
        action("printAction")->trigger();
        QWidget *print = UiTestHarness::waitForTopLevel(QStringLiteral("printDialog"), kTimeout);
        QVERIFY(print);
        QVERIFY(!print->accessibleName().isEmpty());
        print->close();

        QCoreApplication::processEvents();
        QVERIFY(!remote.hasPendingConnections());
        QVERIFY(!remote.waitForNewConnection(200));
    }

    void importMarkdownAsAnUndoableEdit()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile in(dir.filePath("in.md"));
        QVERIFY(in.open(QIODevice::WriteOnly));
        in.write("# Imported\r\nline \xc3\xa4\r\n");
        in.close();
        QFile binary(dir.filePath("binary.md"));
        QVERIFY(binary.open(QIODevice::WriteOnly));
        binary.write("\xff\xfe\x00junk", 7);
        binary.close();

        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("importer"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("imports")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("mine\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY_WITH_TIMEOUT(pane->head().has_value(), kTimeout);
        auto *import = window->findChild<QAction *>(QStringLiteral("importMarkdownAction"));

        // Not text: refused, the canvas untouched.
        import->trigger();
        QVERIFY(chooseFile(QStringLiteral("importFileDialog"), dir.filePath("binary.md")));
        QTRY_VERIFY_WITH_TIMEOUT(
            window->statusBar()->currentMessage().contains(QStringLiteral("UTF-8")), kTimeout);
        QVERIFY(!pane->isEditing());

        import->trigger();
        QVERIFY(chooseFile(QStringLiteral("importFileDialog"), dir.filePath("in.md")));
        QTRY_VERIFY_WITH_TIMEOUT(pane->isEditing(), kTimeout);
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QCOMPARE(editor->toPlainText(), QString::fromUtf8("# Imported\nline \xc3\xa4\n"));
        QVERIFY(pane->hasUnsavedChanges()); // an edit, not saved
        QCOMPARE(pane->head()->content, QStringLiteral("mine\n"));
        editor->undo(); // the text before is one Undo away
        QCOMPARE(editor->toPlainText(), QStringLiteral("mine\n"));
    }
};

QTEST_MAIN(ExportImportTest)
#include "test_export_import.moc"
