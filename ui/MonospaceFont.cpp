#include "ui/MonospaceFont.h"

#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace buzz::ui {

namespace {

// Narrow, wide, punctuation and blank glyphs, and the ones Markdown tables and lists line up
// with: a proportional font never gives them one width.
constexpr QStringView kProbe = u"iWm. 0_|#*-`>[]";

// A font that names the family `candidate` resolves to here, so a QTextCharFormat (which keeps
// families, not style hints) and a widget get exactly the font that was measured.
QFont resolved(const QFont &candidate, const QFont &sized)
{
    QFont font(QFontInfo(candidate).family());
    font.setStyleHint(QFont::TypeWriter);
    if (sized.pointSizeF() > 0)
        font.setPointSizeF(sized.pointSizeF());
    else if (sized.pixelSize() > 0)
        font.setPixelSize(sized.pixelSize());
    return font;
}

QFont choose()
{
    const QFont system = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QList<QFont> candidates {system};
    QFont generic(QStringLiteral("monospace"));
    generic.setStyleHint(QFont::TypeWriter);
    candidates += generic;
    for (const char *family :
         {"DejaVu Sans Mono", "Liberation Mono", "Noto Sans Mono", "Noto Mono", "FreeMono",
          "Ubuntu Mono", "Source Code Pro", "Cascadia Mono", "Consolas", "Menlo", "Courier New"}) {
        if (QFontDatabase::hasFamily(QLatin1String(family)))
            candidates += QFont(QLatin1String(family));
    }
    for (const QFont &candidate : candidates) {
        const QFont font = resolved(candidate, system);
        if (MonospaceFont::hasEqualAdvances(font))
            return font;
    }
    // None of the usual names resolves to one: any installed family that does, those fontconfig
    // flags as fixed-pitch first.
    QStringList families = QFontDatabase::families();
    std::stable_partition(families.begin(), families.end(), [](const QString &family) {
        return QFontDatabase::isFixedPitch(family);
    });
    for (const QString &family : families) {
        const QFont font = resolved(QFont(family), system);
        if (MonospaceFont::hasEqualAdvances(font))
            return font;
    }
    return system; // no monospace font installed at all: the best the platform offers
}

} // namespace

QFont MonospaceFont::font()
{
    static const QFont chosen = choose();
    return chosen;
}

bool MonospaceFont::hasEqualAdvances(const QFont &font)
{
    const QFontMetricsF metrics(font);
    const qreal width = metrics.horizontalAdvance(kProbe.front());
    if (width <= 0)
        return false;
    for (const QChar glyph : kProbe) {
        if (std::abs(metrics.horizontalAdvance(glyph) - width) > 0.01)
            return false;
    }
    return true;
}

} // namespace buzz::ui
