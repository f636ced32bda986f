// The monospace views line up on any machine: the editor, the diff and code in rendered Markdown
// use a font whose glyphs all advance by the same width, measured in the font as it resolves here,
// whichever fonts are installed (fontconfig's fixed-pitch flag is not trusted: it is false for
// Noto Sans Mono). test_ui_monospace_font_hostile runs the same checks with "monospace" resolving
// to a proportional font first (tests/ui/fonts/monospace-is-proportional.conf).

#include "ui/CanvasEditor.h"
#include "ui/DiffView.h"
#include "ui/MarkdownRenderer.h"

#include <QFontInfo>
#include <QFontMetricsF>
#include <QPalette>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>

using namespace buzz;

namespace {

// The characters a Markdown table, list or diff lines up with, narrow and wide.
const QString kGlyphs = QStringLiteral("iWm. 0|#*-_`>[]");

// Empty when every glyph advances as far as 'i' does, else what differs.
QString unequalAdvances(const QFont &font)
{
    const QFontMetricsF metrics(font);
    const qreal width = metrics.horizontalAdvance(kGlyphs.front());
    QStringList differing;
    for (const QChar glyph : kGlyphs) {
        const qreal advance = metrics.horizontalAdvance(glyph);
        if (width <= 0 || std::abs(advance - width) > 0.01)
            differing += QStringLiteral("'%1' %2").arg(glyph).arg(advance);
    }
    if (differing.isEmpty())
        return {};
    return QStringLiteral("%1 ('i' %2): %3")
        .arg(QFontInfo(font).family())
        .arg(width)
        .arg(differing.join(QStringLiteral(", ")));
}

} // namespace

class MonospaceFontTest : public QObject
{
    Q_OBJECT
private slots:
    void editorGlyphsAdvanceEqually()
    {
        ui::CanvasEditor editor;
        auto *text = editor.findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QVERIFY(text);
        qInfo("editor font: %s", qPrintable(QFontInfo(text->font()).family()));
        const QString why = unequalAdvances(text->font());
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // A tab is four spaces wide, so an indented line and one indented with spaces line up.
        QCOMPARE(text->tabStopDistance(),
                 QFontMetricsF(text->font()).horizontalAdvance(QLatin1Char(' ')) * 4);
    }

    void diffGlyphsAdvanceEqually()
    {
        ui::DiffView diff;
        auto *text = diff.findChild<QPlainTextEdit *>(QStringLiteral("diffText"));
        QVERIFY(text);
        const QString why = unequalAdvances(text->font());
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void renderedCodeGlyphsAdvanceEqually()
    {
        QTextDocument document;
        ui::MarkdownRenderer::render(&document,
                                     QStringLiteral("Use `git status` here.\n\n"
                                                    "```\n| a | b |\n```\n"),
                                     QPalette());
        int codeSpans = 0;
        for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QString text = it.fragment().text();
                if (text != QStringLiteral("git status") && text != QStringLiteral("| a | b |"))
                    continue;
                ++codeSpans;
                const QString why = unequalAdvances(it.fragment().charFormat().font());
                QVERIFY2(why.isEmpty(), qPrintable(text + QStringLiteral(": ") + why));
            }
        }
        QCOMPARE(codeSpans, 2); // the inline span and the code block
    }
};

QTEST_MAIN(MonospaceFontTest)
#include "test_monospace_font.moc"
