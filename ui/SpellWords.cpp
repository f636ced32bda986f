#include "ui/SpellWords.h"

#include <QRegularExpression>
#include <QString>
#include <QTextBoundaryFinder>

#include <algorithm>
#include <utility>

namespace buzz::ui {

namespace {

using Span = std::pair<int, int>; // [begin, end)

// Inline code: a run of N backticks up to the next run of exactly N (CommonMark), or to the end
// of the line when it is not closed yet (the user is typing it).
void addCodeSpans(QStringView line, std::vector<Span> &masked)
{
    int i = 0;
    const int size = int(line.size());
    while (i < size) {
        if (line[i] != QLatin1Char('`')) {
            ++i;
            continue;
        }
        int run = 0;
        while (i + run < size && line[i + run] == QLatin1Char('`'))
            ++run;
        int j = i + run;
        int close = -1;
        while (j < size) {
            if (line[j] != QLatin1Char('`')) {
                ++j;
                continue;
            }
            int closing = 0;
            while (j + closing < size && line[j + closing] == QLatin1Char('`'))
                ++closing;
            if (closing == run) {
                close = j + closing;
                break;
            }
            j += closing;
        }
        const int end = close < 0 ? size : close;
        masked.emplace_back(i, end);
        i = end;
    }
}

const QRegularExpression &nonProsePattern()
{
    // Link and image targets "](…)", autolinks and HTML tags "<…>", URLs, e-mail addresses and
    // channel references.
    static const QRegularExpression pattern(QStringLiteral("\\]\\([^)]*\\)?"
                                                           "|<[^>\\s][^>]*>?"
                                                           "|\\b(?:[a-z][a-z0-9+.-]*://|www\\.)\\S+"
                                                           "|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+"
                                                           "|(?<![\\w#])#[\\w-]+"),
                                            QRegularExpression::CaseInsensitiveOption
                                                | QRegularExpression::UseUnicodePropertiesOption);
    return pattern;
}

bool isProseWord(QStringView word)
{
    if (word.size() < 2)
        return false;
    bool hasLower = false;
    for (const QChar c : word) {
        if (c.isDigit() || c == QLatin1Char('_'))
            return false;
        hasLower = hasLower || c.isLower();
    }
    return hasLower; // "API", "HTTP": acronyms are not checked
}

} // namespace

std::vector<SpellWord> spellableWords(QStringView line)
{
    std::vector<SpellWord> words;
    if (line.isEmpty())
        return words;
    std::vector<Span> masked;
    addCodeSpans(line, masked);
    const QString text = line.toString();
    for (auto it = nonProsePattern().globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        masked.emplace_back(int(match.capturedStart()), int(match.capturedEnd()));
    }
    std::sort(masked.begin(), masked.end());
    const auto isMasked = [&masked](int begin, int end) {
        return std::any_of(masked.begin(), masked.end(), [begin, end](const Span &span) {
            return span.first < end && begin < span.second;
        });
    };

    // Word boundaries by Unicode's rules (UAX #29): "don't" and "Grüße" are one word each.
    QTextBoundaryFinder finder(QTextBoundaryFinder::Word, text);
    int start = 0;
    while (start >= 0 && start < text.size()) {
        const int end = int(finder.toNextBoundary());
        if (end < 0)
            break;
        if ((finder.boundaryReasons() & QTextBoundaryFinder::EndOfItem) && text[start].isLetter()) {
            // Apostrophes at the edges are quotes, not part of the word.
            int begin = start;
            int stop = end;
            while (stop > begin
                   && (text[stop - 1] == QLatin1Char('\'') || text[stop - 1] == QChar(0x2019)))
                --stop;
            const QStringView word = QStringView(text).mid(begin, stop - begin);
            if (isProseWord(word) && !isMasked(begin, stop))
                words.push_back({begin, stop - begin});
        }
        start = end;
    }
    return words;
}

} // namespace buzz::ui
