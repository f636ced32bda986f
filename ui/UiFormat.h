#pragma once

#include <QCoreApplication>
#include <QKeySequence>
#include <QLocale>
#include <QString>

#include <functional>

namespace buzz::canvas {
class ProfileCache;
}

namespace buzz::ui {

// Wording shared by several widgets, so the same fact reads the same everywhere: times, sizes and
// people.
class UiFormat
{
    Q_DECLARE_TR_FUNCTIONS(buzz::ui::UiFormat)
public:
    // The locale of the UI's language, not the system's: an English UI on a German system shows
    // English dates. A translation names its locale by translating "en" (context UiFormat).
    static QLocale locale();

    // "30 Nov 2026, 14:05" in local time, in the UI's language.
    static QString revisionTime(qint64 unixSeconds);
    // "just now", "5 min ago", "3 h ago", "yesterday, 14:05", else revisionTime(). Widgets show it
    // with revisionTime() as the tooltip and refresh it on RelativeTimeTicker::tick.
    static QString relativeTime(qint64 unixSeconds, qint64 nowSeconds);
    static QString relativeTime(qint64 unixSeconds) { return relativeTime(unixSeconds, now()); }
    // "12 lines · 1.2 KB"
    static QString sizeSummary(const QString &text);
    // "Save the canvas (Ctrl+S)": every tooltip of an action names its shortcut the same way.
    static QString withShortcut(const QString &text, const QKeySequence &keys);

    // A person as everyone sees them: "You" for the signed-in identity (by key, never by name),
    // else their profile name (display_name ‖ name ‖ short npub; unknown names are fetched and
    // profilesUpdated follows). Someone else whose name could pass for the user's — "you", "You",
    // the user's own name; case, accents, spacing, punctuation, invisible characters and
    // look-alike Cyrillic or Greek letters aside — is shown with their short npub:
    // "you (npub1abcd…wxyz)", so "Last edited by you" is only ever the user.
    static QString personName(canvas::ProfileCache *profiles, const QString &pubkey);
    // Whether `name` reads as the user's own (see personName).
    static bool couldPassForSelf(canvas::ProfileCache *profiles, const QString &name);
    // The hover text for a person: the name and the full npub.
    static QString personToolTip(canvas::ProfileCache *profiles, const QString &pubkey);

    // Wall clock in unix seconds (tests move it).
    static qint64 now();
    static void setClockForTesting(std::function<qint64()> clock);
};

} // namespace buzz::ui
