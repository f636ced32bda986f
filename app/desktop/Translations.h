#pragma once

#include <QLocale>
#include <QString>

namespace buzz::desktop {

// Loads the UI's translation for the user's languages (QLocale::system().uiLanguages(): LANGUAGE,
// then LC_ALL / LC_MESSAGES / LANG) — the app's own, compiled into the binary from
// translations/buzz-canvas_<lang>.ts, and Qt's qtbase catalogue for the same language (standard
// buttons, context menus) — and makes that language the default QLocale, so dates and numbers
// read in the language of the UI, not in the system's format locale. English, the source language
// and the fallback for any other, loads a catalogue too: buzz-canvas_en holds only the plural
// forms ("1 line", "2 lines"). Call once, after QApplication and before any widget.
class Translations
{
public:
    // The language now in use ("de", or "en" when no catalogue matched).
    static QString install();
    static QString install(const QLocale &locale);
};

} // namespace buzz::desktop
