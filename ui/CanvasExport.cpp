#include "ui/CanvasExport.h"

#include "ui/ContentDocument.h"
#include "ui/MarkdownRenderer.h"

#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStringDecoder>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

#include <vector>

namespace buzz::ui {

namespace {

bool isSafeLink(const QString &href)
{
    if (href.startsWith(QLatin1Char('#')))
        return true;
    const QString scheme = QUrl(href).scheme().toLower();
    return scheme == QLatin1String("http") || scheme == QLatin1String("https")
        || scheme == QLatin1String("mailto");
}

// Images out, unsafe link targets out: walked first, changed afterwards from the end so the
// positions stay valid.
void defuse(QTextDocument *document)
{
    struct Change
    {
        int position;
        int length;
        QTextCharFormat format;
        bool image;
    };
    std::vector<Change> changes;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            if (format.isImageFormat())
                changes.push_back({fragment.position(), fragment.length(), format, true});
            else if (format.isAnchor() && !isSafeLink(format.anchorHref()))
                changes.push_back({fragment.position(), fragment.length(), format, false});
        }
    }
    QTextCursor cursor(document);
    for (auto change = changes.rbegin(); change != changes.rend(); ++change) {
        cursor.setPosition(change->position);
        cursor.setPosition(change->position + change->length, QTextCursor::KeepAnchor);
        QTextCharFormat plain = change->format;
        plain.setAnchor(false);
        plain.clearProperty(QTextFormat::AnchorHref);
        if (change->image) {
            const QString name = change->format.toImageFormat().name();
            plain = QTextCharFormat();
            QString text;
            for (int i = 0; i < change->length; ++i)
                text += CanvasExport::tr("[image: %1]").arg(name);
            cursor.insertText(text, plain);
        } else {
            cursor.setCharFormat(plain);
        }
    }
}

bool writeBytes(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace

std::unique_ptr<QTextDocument> CanvasExport::render(const QString &markdown, const QString &title,
                                                    const QPalette &palette)
{
    auto document = std::make_unique<ContentDocument>();
    MarkdownRenderer::render(document.get(), markdown, palette);
    defuse(document.get());
    document->setMetaInformation(QTextDocument::DocumentTitle, title);
    return document;
}

bool CanvasExport::write(Format format, const QString &markdown, const QString &title,
                         const QPalette &palette, const QString &path, QString *error)
{
    if (format == Format::Markdown)
        return writeBytes(path, markdown.toUtf8(), error);
    const auto document = render(markdown, title, palette);
    if (format == Format::Html)
        return writeBytes(path, document->toHtml().toUtf8(), error);
    QPdfWriter pdf(path);
    pdf.setTitle(title);
    pdf.setCreator(QCoreApplication::applicationName());
    pdf.setPageSize(QPageSize(QPageSize::A4));
    document->print(&pdf);
    if (QFileInfo(path).size() <= 0) {
        *error = tr("The PDF could not be written.");
        return false;
    }
    return true;
}

std::optional<QString> CanvasExport::readMarkdown(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return std::nullopt;
    }
    if (file.size() > kMaxImportBytes) {
        *error = tr("The file is over %1 MiB: too large for a canvas.")
                     .arg(kMaxImportBytes / (1024 * 1024));
        return std::nullopt;
    }
    const QByteArray bytes = file.read(kMaxImportBytes + 1);
    QStringDecoder utf8(QStringDecoder::Utf8);
    QString text = utf8.decode(bytes);
    if (utf8.hasError() || text.contains(QChar::Null)) {
        *error = tr("The file is not UTF-8 text.");
        return std::nullopt;
    }
    if (text.startsWith(QChar::ByteOrderMark))
        text.remove(0, 1);
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    return text;
}

} // namespace buzz::ui
