#include "app/desktop/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLoggingCategory>
#include <QTranslator>

#include <memory>

Q_LOGGING_CATEGORY(lcTranslations, "buzz.desktop.translations")

namespace buzz::desktop {

QString Translations::install()
{
    return install(QLocale::system());
}

QString Translations::install(const QLocale &locale)
{
    static QTranslator *app = nullptr;
    static QTranslator *qt = nullptr;
    for (QTranslator **installed : {&app, &qt}) {
        if (*installed) {
            QCoreApplication::removeTranslator(*installed);
            delete *installed;
            *installed = nullptr;
        }
    }
    auto own = std::make_unique<QTranslator>();
    // buzz-canvas_de.qm for uiLanguages() ["de-DE", "de"]: the installed one first (it can be
    // updated without a rebuild), else the one compiled in.
    const QString installed = QCoreApplication::applicationDirPath()
        + QStringLiteral("/../share/buzz-canvas/translations");
    const auto loadFor = [&](const QLocale &wanted) {
        return own->load(wanted, QStringLiteral("buzz-canvas"), QStringLiteral("_"), installed)
            || own->load(wanted, QStringLiteral("buzz-canvas"), QStringLiteral("_"),
                         QStringLiteral(":/i18n"));
    };
    // No catalogue for the user's languages: the UI speaks English, the source language, whose
    // catalogue (buzz-canvas_en) holds only the plural forms — "1 line", not "1 lines".
    const QLocale english(QLocale::English, locale.territory());
    const bool fallback = !loadFor(locale);
    if (fallback && !loadFor(english)) {
        qCWarning(lcTranslations) << "no English catalogue: plural forms read \"1 lines\"";
        QLocale::setDefault(english);
        return QStringLiteral("en");
    }
    const QString language = own->language(); // "de", "en"
    app = own.release();
    QCoreApplication::installTranslator(app);
    auto base = std::make_unique<QTranslator>();
    if (base->load(QLocale(language), QStringLiteral("qtbase"), QStringLiteral("_"),
                   QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        qt = base.release();
        QCoreApplication::installTranslator(qt);
    } else {
        qCInfo(lcTranslations) << "no Qt translation for" << language << "in"
                               << QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    }
    // Dates and numbers in the UI's language (with the user's region where it has one).
    const QLocale ui(language);
    QLocale::setDefault(fallback ? english : ui.language() == locale.language() ? locale : ui);
    return language;
}

} // namespace buzz::desktop
