#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace buzz::ui {

class CanvasPane;

// The headings of a canvas to jump through it (View → Go to Heading, Ctrl+Shift+O): a
// QuickPickDialog lists them indented by level; picking one moves the caret there and scrolls it
// to the top — in the editor while editing, else in the rendered canvas (or its source view).
class CanvasOutline
{
    Q_DECLARE_TR_FUNCTIONS(buzz::ui::CanvasOutline)
public:
    struct Heading
    {
        int level = 1;
        QString title;
        int line = 0; // 0-based line of the Markdown source
    };

    // ATX ("## Title") and setext ("Title" over "===" / "---") headings, outside fenced code, in
    // document order: the same headings, in the same order, as the rendered document has.
    static QList<Heading> headings(const QString &markdown);

    static void open(CanvasPane *pane);
    // Moves to the `ordinal`th heading of what the pane shows; false when it has no such heading.
    static bool jumpTo(CanvasPane *pane, int ordinal);
};

} // namespace buzz::ui
