#pragma once

#include <QCoreApplication>
#include <QString>

#include <memory>
#include <optional>

class QPalette;
class QTextDocument;

namespace buzz::ui {

// The canvas leaving the app (Markdown, HTML, PDF, print) and a Markdown file coming in. What is
// exported is text anyone in the channel wrote, so an exported document makes nothing fetch or
// run either: rendering reads no resource (ContentDocument), images become "[image: address]"
// text, and links other than http, https, mailto and #anchors lose their target.
class CanvasExport
{
    Q_DECLARE_TR_FUNCTIONS(buzz::ui::CanvasExport)
public:
    enum class Format { Markdown, Html, Pdf };

    // The rendered canvas, images and unsafe links taken out as above.
    static std::unique_ptr<QTextDocument> render(const QString &markdown, const QString &title,
                                                 const QPalette &palette);
    // Writes the file; on failure says why in `error`.
    static bool write(Format format, const QString &markdown, const QString &title,
                      const QPalette &palette, const QString &path, QString *error);
    // A Markdown file's text (UTF-8, line ends as "\n"), or nullopt with `error`.
    static constexpr qint64 kMaxImportBytes = 4 * 1024 * 1024;
    static std::optional<QString> readMarkdown(const QString &path, QString *error);
};

} // namespace buzz::ui
