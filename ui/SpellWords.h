#pragma once

#include <QStringView>

#include <vector>

namespace buzz::ui {

// One word of an editor line: UTF-16 offset and length in the line.
struct SpellWord
{
    int start = 0;
    int length = 0;
    friend bool operator==(const SpellWord &, const SpellWord &) = default;
};

// The words of one Markdown line that spelling applies to: prose only. Left out are inline code
// spans, link and image targets, autolinks, bare URLs and e-mail addresses, HTML tags, channel
// references (#name), words with digits or underscores, words in capitals (acronyms) and single
// letters. Fenced and indented code blocks are whole lines: the caller (MarkdownHighlighter, which
// knows the fence state) does not ask for them.
std::vector<SpellWord> spellableWords(QStringView line);

} // namespace buzz::ui
