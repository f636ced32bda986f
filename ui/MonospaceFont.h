#pragma once

#include <QFont>

namespace buzz::ui {

// The font of every view that shows Markdown source, diffs or code: one whose glyphs really all
// have the same advance, so columns of a table, an indented list or a diff line up.
//
// QFontDatabase::systemFont(FixedFont) alone is not enough: it names "monospace", which fontconfig
// may resolve to a font it does not mark fixed-pitch (Noto Sans Mono on a Debian/Ubuntu desktop,
// where QFontInfo::fixedPitch() is false although its advances are equal), and on a machine with
// no fixed-pitch font at the head of the list it could resolve to a proportional one. So the
// choice is made on the glyphs themselves.
class MonospaceFont
{
public:
    // The first candidate whose probe glyphs have equal advances: the system's fixed font, the
    // generic "monospace", well-known monospace families, then every installed family. Sized as the
    // system's fixed font. Chosen once per process (needs a QGuiApplication).
    static QFont font();

    // True when 'i', 'W', 'm', '.', ' ' and friends all advance by the same width in `font`
    // as it resolves on this machine (QFontMetricsF, not the fontconfig flag).
    static bool hasEqualAdvances(const QFont &font);
};

} // namespace buzz::ui
