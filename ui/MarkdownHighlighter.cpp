#include "ui/MarkdownHighlighter.h"

#include <QFont>

namespace buzz::ui {

MarkdownHighlighter::MarkdownHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
    , m_headingPattern(QStringLiteral("^\\s{0,3}#{1,6}\\s.*$"))
    , m_listPattern(QStringLiteral("^\\s*([-*+]|\\d+[.)])\\s"))
    , m_rulePattern(QStringLiteral("^\\s{0,3}([-*_])(\\s*\\1){2,}\\s*$"))
{
    m_heading.setForeground(QColor(41, 128, 185));
    m_heading.setFontWeight(QFont::Bold);
    m_code.setForeground(QColor(142, 68, 173));
    m_fence.setForeground(QColor(127, 140, 141));
    m_quote.setForeground(QColor(39, 174, 96));
    m_quote.setFontItalic(true);
    m_listMarker.setForeground(QColor(230, 126, 34));
    m_listMarker.setFontWeight(QFont::Bold);
    m_rule.setForeground(QColor(127, 140, 141));

    QTextCharFormat bold;
    bold.setFontWeight(QFont::Bold);
    QTextCharFormat italic;
    italic.setFontItalic(true);
    QTextCharFormat strike;
    strike.setFontStrikeOut(true);
    QTextCharFormat link;
    link.setForeground(QColor(41, 128, 185));
    link.setFontUnderline(true);
    QTextCharFormat channelRef;
    channelRef.setForeground(QColor(22, 160, 133));

    m_inlineRules.push_back(
        {QRegularExpression(QStringLiteral("\\*\\*[^*\\n]+\\*\\*|__[^_\\n]+__")), bold});
    m_inlineRules.push_back(
        {QRegularExpression(QStringLiteral(
             "(?<![*\\w])\\*[^*\\s][^*\\n]*\\*(?!\\*)|(?<![_\\w])_[^_\\s][^_\\n]*_(?!\\w)")),
         italic});
    m_inlineRules.push_back({QRegularExpression(QStringLiteral("~~[^~\\n]+~~")), strike});
    m_inlineRules.push_back(
        {QRegularExpression(QStringLiteral("!?\\[[^\\]\\n]*\\]\\([^)\\n]*\\)")), link});
    m_inlineRules.push_back({QRegularExpression(QStringLiteral("<https?://[^>\\s]+>")), link});
    m_inlineRules.push_back(
        {QRegularExpression(QStringLiteral("(?<![\\w#])#[a-z0-9][\\w-]*")), channelRef});
    m_inlineRules.push_back({QRegularExpression(QStringLiteral("`[^`\\n]+`")), m_code});
    for (auto &rule : m_inlineRules)
        rule.pattern.optimize();
}

void MarkdownHighlighter::highlightBlock(const QString &text)
{
    const bool fenceLine = text.trimmed().startsWith(QLatin1String("```"))
        || text.trimmed().startsWith(QLatin1String("~~~"));
    if (previousBlockState() == InFence) {
        setFormat(0, text.size(), fenceLine ? m_fence : m_code);
        setCurrentBlockState(fenceLine ? Normal : InFence);
        return;
    }
    if (fenceLine) {
        setFormat(0, text.size(), m_fence);
        setCurrentBlockState(InFence);
        return;
    }
    setCurrentBlockState(Normal);
    if (text.isEmpty())
        return;

    if (m_headingPattern.match(text).hasMatch()) {
        setFormat(0, text.size(), m_heading);
        return;
    }
    if (m_rulePattern.match(text).hasMatch()) {
        setFormat(0, text.size(), m_rule);
        return;
    }
    if (text.startsWith(QLatin1Char('>')) || text.startsWith(QLatin1String(" >"))) {
        setFormat(0, text.size(), m_quote);
    } else if (const auto list = m_listPattern.match(text); list.hasMatch()) {
        setFormat(list.capturedStart(1), list.capturedLength(1), m_listMarker);
    }
    for (const Rule &rule : m_inlineRules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto match = it.next();
            setFormat(match.capturedStart(rule.group), match.capturedLength(rule.group),
                      rule.format);
        }
    }
}

} // namespace buzz::ui
