#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace buzz::ui {

// Markdown syntax colouring for the editor: headings, emphasis, inline code, fenced code blocks,
// links, lists, block quotes and rules. Line-local regular expressions plus one block state for
// fences, so typing in a 1 MB document only re-highlights the edited block.
class MarkdownHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit MarkdownHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    enum BlockState { Normal = 0, InFence = 1 };

    std::vector<Rule> m_inlineRules;
    QTextCharFormat m_heading;
    QTextCharFormat m_code;
    QTextCharFormat m_fence;
    QTextCharFormat m_quote;
    QTextCharFormat m_listMarker;
    QTextCharFormat m_rule;
    QRegularExpression m_headingPattern;
    QRegularExpression m_listPattern;
    QRegularExpression m_rulePattern;
};

} // namespace buzz::ui
