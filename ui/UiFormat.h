#pragma once

#include <QKeySequence>
#include <QString>

namespace buzz::ui {

// Wording shared by several widgets, so the same fact reads the same everywhere.
class UiFormat
{
public:
    // "30 Nov 2026, 14:05" in local time.
    static QString revisionTime(qint64 unixSeconds);
    // "just now", "5 min ago", "3 h ago", else revisionTime().
    static QString relativeTime(qint64 unixSeconds, qint64 nowSeconds);
    // "12 lines · 1.2 KB"
    static QString sizeSummary(const QString &text);
    // "Save the canvas (Ctrl+S)": every tooltip of an action names its shortcut the same way.
    static QString withShortcut(const QString &text, const QKeySequence &keys);
};

} // namespace buzz::ui
