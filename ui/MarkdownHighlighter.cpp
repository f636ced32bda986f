#include "ui/MarkdownHighlighter.h"

#include "ui/SpellChecker.h"

#include <QFont>
#include <QTextDocument>
#include <QTextLayout>

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
    m_misspelled.setUnderlineStyle(QTextCharFormat::SpellCheckUnderline);
    m_misspelled.setUnderlineColor(QColor(192, 57, 43));
    m_rehighlightTimer.setInterval(0);
    m_rehighlightTimer.setSingleShot(true);
    connect(&m_rehighlightTimer, &QTimer::timeout, this, &MarkdownHighlighter::rehighlightSome);
}

void MarkdownHighlighter::setSpellChecker(SpellChecker *spelling)
{
    if (m_spelling == spelling)
        return;
    if (m_spelling)
        disconnect(m_spelling, nullptr, this, nullptr);
    m_spelling = spelling;
    if (spelling) {
        connect(spelling, &SpellChecker::linesChecked, this, [this] { queueRehighlight(false); });
        connect(spelling, &SpellChecker::readyChanged, this, [this] { queueRehighlight(true); });
        connect(spelling, &SpellChecker::enabledChanged, this, [this] { queueRehighlight(true); });
        connect(spelling, &SpellChecker::wordAdded, this, [this](const QString &word) {
            for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
                if (block.text().contains(word))
                    m_rehighlight.push_back(block);
            }
            m_rehighlightTimer.start();
        });
    }
    queueRehighlight(true);
}

bool MarkdownHighlighter::isMisspelled(const QTextBlock &block, int position) const
{
    if (!block.layout())
        return false;
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (range.format.underlineStyle() == QTextCharFormat::SpellCheckUnderline
            && position >= range.start && position < range.start + range.length)
            return true;
    }
    return false;
}

void MarkdownHighlighter::queueRehighlight(bool everyBlock)
{
    if (everyBlock) {
        m_awaiting.clear();
        m_rehighlight.clear();
        for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
            m_rehighlight.push_back(block);
    } else {
        // Results came in: the blocks that asked and turned out to have something to underline.
        for (const QTextBlock &block : std::exchange(m_awaiting, {})) {
            if (!block.isValid() || !m_spelling)
                continue;
            const auto wrong = m_spelling->misspellings(block.text());
            if (!wrong)
                m_awaiting.push_back(block); // edited since: asked again, still waiting
            else if (!wrong->empty())
                m_rehighlight.push_back(block);
        }
    }
    if (!m_rehighlight.empty())
        m_rehighlightTimer.start();
}

void MarkdownHighlighter::rehighlightSome()
{
    // ~200 short blocks re-highlight in a few milliseconds; the rest on the next turn.
    constexpr size_t kBlocksPerTurn = 200;
    const size_t count = std::min(kBlocksPerTurn, m_rehighlight.size());
    std::vector<QTextBlock> slice(m_rehighlight.begin(), m_rehighlight.begin() + count);
    m_rehighlight.erase(m_rehighlight.begin(), m_rehighlight.begin() + count);
    for (const QTextBlock &block : slice) {
        if (block.isValid())
            rehighlightBlock(block);
    }
    if (!m_rehighlight.empty())
        m_rehighlightTimer.start();
}

void MarkdownHighlighter::highlightBlock(const QString &text)
{
    if (highlightMarkdown(text) && m_spelling && m_spelling->isEnabled() && m_spelling->isReady())
        underlineMisspellings(text);
}

void MarkdownHighlighter::underlineMisspellings(const QString &text)
{
    const auto wrong = m_spelling->misspellings(text);
    if (!wrong) {
        if (m_awaiting.empty() || m_awaiting.back() != currentBlock())
            m_awaiting.push_back(currentBlock());
        return;
    }
    for (const SpellWord &word : *wrong) {
        if (word.start + word.length > text.size())
            continue;
        // Keep each character's Markdown format (a misspelled word in bold stays bold).
        for (int i = word.start; i < word.start + word.length; ++i) {
            QTextCharFormat merged = format(i);
            merged.merge(m_misspelled);
            setFormat(i, 1, merged);
        }
    }
}

bool MarkdownHighlighter::highlightMarkdown(const QString &text)
{
    const bool fenceLine = text.trimmed().startsWith(QLatin1String("```"))
        || text.trimmed().startsWith(QLatin1String("~~~"));
    if (previousBlockState() == InFence) {
        setFormat(0, text.size(), fenceLine ? m_fence : m_code);
        setCurrentBlockState(fenceLine ? Normal : InFence);
        return false;
    }
    if (fenceLine) {
        setFormat(0, text.size(), m_fence);
        setCurrentBlockState(InFence);
        return false;
    }
    setCurrentBlockState(Normal);
    if (text.isEmpty())
        return false;

    if (m_headingPattern.match(text).hasMatch()) {
        setFormat(0, text.size(), m_heading);
        return true;
    }
    if (m_rulePattern.match(text).hasMatch()) {
        setFormat(0, text.size(), m_rule);
        return false;
    }
    const auto list = m_listPattern.match(text);
    if (text.startsWith(QLatin1Char('>')) || text.startsWith(QLatin1String(" >"))) {
        setFormat(0, text.size(), m_quote);
    } else if (list.hasMatch()) {
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
    // An indented code block (four spaces or a tab, not a list item's continuation marker).
    const bool indentedCode =
        (text.startsWith(QLatin1String("    ")) || text.startsWith(QLatin1Char('\t')))
        && !list.hasMatch();
    return !indentedCode;
}

} // namespace buzz::ui
