// What a canvas may make the app do (issue 26 item 10). A canvas is text anyone in the channel
// wrote: rendering it must never read a local file (one `![z](file:///dev/zero)` made every
// member's app allocate until it aborted, at every start), never fetch anything, and a link in it
// opens only in the desktop's browser, only for web and mail addresses, after the user said so.

#include "ui/CanvasEditor.h"
#include "ui/CanvasView.h"
#include "ui/MarkdownRenderer.h"

#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QImage>
#include <QMessageBox>
#include <QPushButton>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFragment>

#include <memory>

using namespace buzz::ui;

namespace {

// A local image the canvas names; it must never show.
constexpr QSize kLocalImageSize(40, 30);

QImage shownImage(QTextDocument *document, const QString &name)
{
    const QVariant resource = document->resource(QTextDocument::ImageResource, QUrl(name));
    if (resource.userType() == QMetaType::QImage)
        return resource.value<QImage>();
    if (resource.userType() == QMetaType::QPixmap)
        return resource.value<QPixmap>().toImage();
    QImage image;
    if (resource.userType() == QMetaType::QByteArray)
        image.loadFromData(resource.toByteArray());
    return image;
}

QWidget *visibleTopLevel(const QString &objectName)
{
    for (QWidget *widget : QApplication::topLevelWidgets()) {
        if (widget->objectName() == objectName && widget->isVisible())
            return widget;
    }
    return nullptr;
}

// Where the link to `href` is drawn, in the viewport's coordinates (from the layout itself, so
// no font or size is assumed).
std::optional<QPoint> linkPoint(QTextBrowser *browser, const QString &href)
{
    QTextDocument *document = browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position() + fragment.length() / 2);
            return browser->cursorRect(cursor).center();
        }
    }
    return std::nullopt;
}

// The desktop's URL handlers, replaced: records what the app asked the desktop to open.
class DesktopRecorder : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl &url) { opened.append(url); }
};

// One surface that renders a canvas: the canvas view, or the editor's live preview.
struct Surface
{
    std::unique_ptr<QWidget> owner;
    QTextBrowser *browser = nullptr;
};

Surface makeSurface(bool preview, const QString &markdown)
{
    Surface surface;
    if (preview) {
        auto *editor = new CanvasEditor;
        surface.owner.reset(editor);
        editor->setPreviewVisible(true);
        editor->loadText(markdown);
        surface.browser = editor->preview();
    } else {
        auto *view = new CanvasView;
        surface.owner.reset(view);
        MarkdownRenderer::render(view->document(), markdown, view->palette());
        surface.browser = view;
    }
    surface.owner->resize(900, 600);
    surface.owner->show();
    if (preview)
        static_cast<CanvasEditor *>(surface.owner.get())->refreshPreviewNow();
    return surface;
}

} // namespace

class TestCanvasContent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void localImagesAreNeverRead_data();
    void localImagesAreNeverRead();
    void endlessLocalFileIsNeverRead_data();
    void endlessLocalFileIsNeverRead();
    void remoteImagesAreNeverFetched_data();
    void remoteImagesAreNeverFetched();
    void linksOpenOnlyAfterConfirmation_data();
    void linksOpenOnlyAfterConfirmation();

private:
    QTemporaryDir m_dir;
    QString m_previousDir;
    QImage m_localImage;
    DesktopRecorder m_desktop;
};

void TestCanvasContent::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_localImage = QImage(kLocalImageSize, QImage::Format_RGB32);
    m_localImage.fill(Qt::red);
    QVERIFY(m_localImage.save(m_dir.filePath(QStringLiteral("x.png"))));
    // Relative names resolve against the working directory: make it the folder with x.png.
    m_previousDir = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_dir.path()));
    for (const char *scheme : {"http", "https", "mailto", "file", "ftp", "javascript", "qrc"})
        QDesktopServices::setUrlHandler(QString::fromLatin1(scheme), &m_desktop, "open");
}

void TestCanvasContent::cleanupTestCase()
{
    QDir::setCurrent(m_previousDir);
    for (const char *scheme : {"http", "https", "mailto", "file", "ftp", "javascript", "qrc"})
        QDesktopServices::unsetUrlHandler(QString::fromLatin1(scheme));
}

void TestCanvasContent::localImagesAreNeverRead_data()
{
    QTest::addColumn<bool>("preview");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("markdown");
    const QString absolute = m_dir.filePath(QStringLiteral("x.png"));
    const QString fileUrl = QUrl::fromLocalFile(absolute).toString();
    for (const bool preview : {false, true}) {
        const char *where = preview ? "preview" : "view";
        QTest::addRow("%s: file URL", where)
            << preview << fileUrl << QStringLiteral("![z](%1)").arg(fileUrl);
        QTest::addRow("%s: absolute path", where)
            << preview << absolute << QStringLiteral("![z](%1)").arg(absolute);
        QTest::addRow("%s: relative path", where)
            << preview << QStringLiteral("x.png") << QStringLiteral("text ![z](x.png) text");
        QTest::addRow("%s: inline HTML", where)
            << preview << QStringLiteral("x.png") << QStringLiteral("<img src=\"x.png\">\n");
    }
}

void TestCanvasContent::localImagesAreNeverRead()
{
    QFETCH(bool, preview);
    QFETCH(QString, name);
    QFETCH(QString, markdown);
    Surface surface = makeSurface(preview, markdown);
    QVERIFY(QTest::qWaitForWindowExposed(surface.owner.get()));
    // Lay the whole document out and paint it: both ask for the image.
    QVERIFY(surface.browser->document()->size().isValid());
    QVERIFY(!surface.browser->viewport()->grab().isNull());
    const QImage shown = shownImage(surface.browser->document(), name);
    QVERIFY2(shown.size() != kLocalImageSize,
             qPrintable(QStringLiteral("the canvas showed the local file %1").arg(name)));
}

void TestCanvasContent::endlessLocalFileIsNeverRead_data()
{
    QTest::addColumn<bool>("preview");
    QTest::addColumn<QString>("markdown");
    for (const bool preview : {false, true}) {
        const char *where = preview ? "preview" : "view";
        QTest::addRow("%s: file URL", where)
            << preview << QStringLiteral("# Notes\n\n![z](file:///dev/zero)\n");
        QTest::addRow("%s: path", where) << preview << QStringLiteral("![z](/dev/zero)\n");
    }
}

// Reading /dev/zero never ends: before the fix this allocated until std::bad_alloc aborted.
void TestCanvasContent::endlessLocalFileIsNeverRead()
{
    QFETCH(bool, preview);
    QFETCH(QString, markdown);
    Surface surface = makeSurface(preview, markdown);
    QVERIFY(QTest::qWaitForWindowExposed(surface.owner.get()));
    QVERIFY(surface.browser->document()->size().isValid());
    QVERIFY(!surface.browser->viewport()->grab().isNull());
    QVERIFY(surface.browser->toPlainText().contains(QChar::ObjectReplacementCharacter));
}

void TestCanvasContent::remoteImagesAreNeverFetched_data()
{
    QTest::addColumn<bool>("preview");
    QTest::newRow("view") << false;
    QTest::newRow("preview") << true;
}

void TestCanvasContent::remoteImagesAreNeverFetched()
{
    QFETCH(bool, preview);
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    const QString url = QStringLiteral("http://127.0.0.1:%1/pixel.png").arg(server.serverPort());
    Surface surface = makeSurface(preview, QStringLiteral("![tracker](%1)\n").arg(url));
    QVERIFY(QTest::qWaitForWindowExposed(surface.owner.get()));
    QVERIFY(surface.browser->document()->size().isValid());
    QVERIFY(!surface.browser->viewport()->grab().isNull());
    QCoreApplication::processEvents();
    QVERIFY(!server.hasPendingConnections());
    QVERIFY(shownImage(surface.browser->document(), url).size() != kLocalImageSize);
}

void TestCanvasContent::linksOpenOnlyAfterConfirmation_data()
{
    QTest::addColumn<bool>("preview");
    QTest::newRow("view") << false;
    QTest::newRow("preview") << true;
}

void TestCanvasContent::linksOpenOnlyAfterConfirmation()
{
    QFETCH(bool, preview);
    m_desktop.opened.clear();
    const QString local = QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("x.png"))).toString();
    const QString markdown =
        QStringLiteral("Links: [local](%1), [web](https://example.com/page?q=1), "
                       "[mail](mailto:team@example.com), [relative](notes.md), "
                       "[script](javascript:alert(1)), [ftp](ftp://example.com/f).\n")
            .arg(local);
    Surface surface = makeSurface(preview, markdown);
    QTextBrowser *browser = surface.browser;
    QVERIFY(QTest::qWaitForWindowExposed(surface.owner.get()));
    const QString before = browser->toPlainText();

    auto click = [&](const QString &href) {
        const auto point = linkPoint(browser, href);
        QVERIFY2(point, qPrintable(href));
        QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, *point);
    };
    auto closeRefusal = [&](const QString &href) {
        QTRY_VERIFY_WITH_TIMEOUT(visibleTopLevel(QStringLiteral("linkRefusedDialog")), 10000);
        auto *dialog = qobject_cast<QMessageBox *>(visibleTopLevel("linkRefusedDialog"));
        QVERIFY(dialog);
        QVERIFY(!dialog->accessibleName().isEmpty());
        QVERIFY2(dialog->text().contains(href) || dialog->informativeText().contains(href),
                 qPrintable(dialog->text()));
        dialog->reject();
        QTRY_VERIFY(!visibleTopLevel(QStringLiteral("linkRefusedDialog")));
    };

    // Neither a local file, a relative name, a script nor another scheme: refused, the canvas
    // stays (a file link replaced the canvas with the file before).
    for (const QString &href :
         {local, QStringLiteral("notes.md"), QStringLiteral("javascript:alert(1)"),
          QStringLiteral("ftp://example.com/f")}) {
        click(href);
        closeRefusal(href);
        QCOMPARE(browser->toPlainText(), before);
        QVERIFY(browser->source().isEmpty());
    }
    QVERIFY(m_desktop.opened.isEmpty());

    // A web address: asked first; Cancel opens nothing, Open hands it to the desktop's browser.
    const QUrl web(QStringLiteral("https://example.com/page?q=1"));
    for (const bool confirm : {false, true}) {
        click(web.toString());
        QTRY_VERIFY_WITH_TIMEOUT(visibleTopLevel(QStringLiteral("openLinkDialog")), 10000);
        QVERIFY(m_desktop.opened.isEmpty());
        auto *dialog = qobject_cast<QMessageBox *>(visibleTopLevel("openLinkDialog"));
        QVERIFY(dialog);
        QVERIFY(!dialog->accessibleName().isEmpty());
        QVERIFY2(dialog->text().contains(web.toString())
                     || dialog->informativeText().contains(web.toString()),
                 qPrintable(dialog->informativeText()));
        auto *button = dialog->findChild<QPushButton *>(
            confirm ? QStringLiteral("openLinkButton") : QStringLiteral("cancelLinkButton"));
        QVERIFY(button);
        QVERIFY(!button->accessibleName().isEmpty());
        button->click();
        QTRY_VERIFY(!visibleTopLevel(QStringLiteral("openLinkDialog")));
    }
    QCOMPARE(m_desktop.opened, QList<QUrl>({web}));

    // Mail: the same question, then the desktop's mail program.
    const QUrl mail(QStringLiteral("mailto:team@example.com"));
    click(mail.toString());
    QTRY_VERIFY_WITH_TIMEOUT(visibleTopLevel(QStringLiteral("openLinkDialog")), 10000);
    auto *dialog = qobject_cast<QMessageBox *>(visibleTopLevel("openLinkDialog"));
    QVERIFY(dialog);
    dialog->findChild<QPushButton *>(QStringLiteral("openLinkButton"))->click();
    QTRY_COMPARE(m_desktop.opened.size(), 2);
    QCOMPARE(m_desktop.opened.last(), mail);
    QCOMPARE(browser->toPlainText(), before);
}

QTEST_MAIN(TestCanvasContent)
#include "test_canvas_content.moc"
