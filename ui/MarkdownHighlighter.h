#pragma once

#include <QPointer>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTimer>

#include <vector>

namespace buzz::ui {

class SpellChecker;

// Markdown syntax colouring for the editor: headings, emphasis, inline code, fenced code blocks,
// links, lists, block quotes and rules. Line-local regular expressions plus one block state for
// fences, so typing in a 1 MB document only re-highlights the edited block. With a SpellChecker
// it also underlines misspelled prose words (not code spans, fenced or indented code): a line whose
// result is not known yet is coloured at once and underlined when the worker has checked it.
class MarkdownHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit MarkdownHighlighter(QTextDocument *document);

    void setSpellChecker(SpellChecker *spelling); // nullptr: no spell checking
    SpellChecker *spellChecker() const { return m_spelling; }
    // The misspelled words of a block as last highlighted (tests, the context menu).
    bool isMisspelled(const QTextBlock &block, int position) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    bool highlightMarkdown(const QString &text); // false: the line is code, not prose
    void underlineMisspellings(const QString &text);
    void queueRehighlight(bool everyBlock);
    void rehighlightSome();

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
    QTextCharFormat m_misspelled;
    QPointer<SpellChecker> m_spelling;
    // Blocks that wait for a spelling result, or for a re-highlight after the dictionary or the
    // setting changed; re-highlighted a slice per event-loop turn, so a large canvas never blocks.
    std::vector<QTextBlock> m_awaiting;
    std::vector<QTextBlock> m_rehighlight;
    QTimer m_rehighlightTimer;
};

} // namespace buzz::ui
