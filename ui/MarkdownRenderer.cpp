#include "ui/MarkdownRenderer.h"

#include "ui/MonospaceFont.h"

#include <QPalette>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include <vector>

namespace buzz::ui {

namespace {

QColor blend(const QColor &base, const QColor &accent, qreal amount)
{
    return QColor::fromRgbF(base.redF() * (1 - amount) + accent.redF() * amount,
                            base.greenF() * (1 - amount) + accent.greenF() * amount,
                            base.blueF() * (1 - amount) + accent.blueF() * amount);
}

QStringList monoFamilies()
{
    // The family whose glyph advances were measured equal (MonospaceFont), then the generic name
    // fontconfig always resolves.
    return {MonospaceFont::font().family(), QStringLiteral("monospace")};
}

void polishTable(QTextTable *table, const QPalette &palette)
{
    QTextTableFormat format = table->format();
    format.setBorder(1);
    format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    format.setBorderBrush(blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.3));
    format.setBorderCollapse(true);
    format.setCellPadding(4);
    format.setCellSpacing(0);
    format.setHeaderRowCount(1);
    table->setFormat(format);
    if (table->rows() < 1)
        return;
    const QColor headerBackground =
        blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.08);
    for (int column = 0; column < table->columns(); ++column) {
        // A header cell takes its column's alignment (the body's first row), as GitHub and HackMD
        // show it: Qt centres headers over left-aligned columns.
        Qt::Alignment alignment = Qt::AlignLeft;
        if (table->rows() > 1)
            alignment = table->cellAt(1, column).firstCursorPosition().blockFormat().alignment()
                & Qt::AlignHorizontal_Mask;
        QTextTableCell header = table->cellAt(0, column);
        QTextCharFormat cellFormat = header.format();
        cellFormat.setBackground(headerBackground);
        header.setFormat(cellFormat);
        QTextCursor cursor = header.firstCursorPosition();
        cursor.setPosition(header.lastCursorPosition().position(), QTextCursor::KeepAnchor);
        QTextBlockFormat block;
        block.setAlignment(alignment ? alignment : Qt::AlignLeft);
        cursor.mergeBlockFormat(block);
        QTextCharFormat bold;
        bold.setFontWeight(QFont::Bold);
        cursor.mergeCharFormat(bold);
    }
}

} // namespace

void MarkdownRenderer::render(QTextDocument *document, const QString &markdown,
                              const QPalette &palette)
{
    document->setMarkdown(markdown);
    polish(document, palette);
}

QString MarkdownRenderer::plainText(const QString &markdown)
{
    QTextDocument document;
    document.setMarkdown(markdown);
    return document.toPlainText();
}

void MarkdownRenderer::polish(QTextDocument *document, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor codeBackground = blend(base, text, 0.07);
    const QColor quoteBackground = blend(base, palette.color(QPalette::Highlight), 0.1);
    const QColor quoteText = blend(base, text, 0.75);
    const QStringList mono = monoFamilies();

    struct CodeSpan
    {
        int position;
        int length;
        bool inBlock;
    };
    std::vector<CodeSpan> codeSpans;
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat blockFormat = block.blockFormat();
        const bool codeBlock = blockFormat.hasProperty(QTextFormat::BlockCodeFence)
            || blockFormat.hasProperty(QTextFormat::BlockCodeLanguage)
            || block.charFormat().fontFixedPitch();
        const int quoteLevel = blockFormat.intProperty(QTextFormat::BlockQuoteLevel);
        if (quoteLevel > 0) {
            // A tinted band with muted text, deeper per level, instead of a bare indent.
            QTextCursor quote(block);
            QTextBlockFormat format;
            format.setBackground(quoteBackground);
            format.setLeftMargin(12.0 * quoteLevel);
            format.setTextIndent(8);
            format.setTopMargin(2);
            format.setBottomMargin(2);
            quote.mergeBlockFormat(format);
            QTextCharFormat muted;
            muted.setForeground(quoteText);
            quote.movePosition(QTextCursor::StartOfBlock);
            quote.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            quote.mergeCharFormat(muted);
        }
        if (codeBlock) {
            QTextCursor code(block);
            QTextBlockFormat format;
            format.setBackground(codeBackground);
            code.mergeBlockFormat(format);
        }
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.isValid() && (codeBlock || fragment.charFormat().fontFixedPitch()))
                codeSpans.push_back({fragment.position(), fragment.length(), codeBlock});
        }
    }
    // Applied after the walk: merging formats splits and joins the fragments being walked.
    for (const CodeSpan &code : codeSpans) {
        // Inline code and code blocks get a real monospace family (Qt only marks them fixed-pitch,
        // which the body font ignores).
        QTextCursor span(document);
        span.setPosition(code.position);
        span.setPosition(code.position + code.length, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setFontFamilies(mono);
        format.setFontFixedPitch(true);
        if (!code.inBlock)
            format.setBackground(codeBackground);
        span.mergeCharFormat(format);
    }
    for (QTextFrame *frame : document->rootFrame()->childFrames()) {
        if (auto *table = qobject_cast<QTextTable *>(frame))
            polishTable(table, palette);
    }
    cursor.endEditBlock();
}

} // namespace buzz::ui
