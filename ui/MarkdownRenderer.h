#pragma once

#include <QString>

class QPalette;
class QTextDocument;

namespace buzz::ui {

// Markdown into a QTextDocument the way readers expect it, for the canvas view and the live preview
// alike. Qt's Markdown import gives the structure but not the look: a blockquote is only an indent,
// inline code keeps the body font, and table headers are centred over left-aligned columns with no
// rule. After setMarkdown() this restyles those parts (nothing else changes).
class MarkdownRenderer
{
public:
    static void render(QTextDocument *document, const QString &markdown, const QPalette &palette);
    // The restyling alone (a document that already holds imported Markdown).
    static void polish(QTextDocument *document, const QPalette &palette);
    // What a reader of the rendered canvas sees, as plain text: no "**", "#", "> " or link
    // targets (search snippets quote it, not the Markdown source).
    static QString plainText(const QString &markdown);
};

} // namespace buzz::ui
