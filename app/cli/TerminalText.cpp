#include "TerminalText.h"

#include <array>
#include <atomic>

#include <unistd.h>

namespace buzz::cli {

namespace {

// -1 unknown, 0 no, 1 yes, for stdin, stdout and stderr.
std::array<std::atomic<int>, 3> g_terminal {-1, -1, -1};

void appendEscape(QByteArray &out, unsigned code)
{
    static const char hex[] = "0123456789abcdef";
    out += "\\u00";
    out += hex[(code >> 4) & 0xf];
    out += hex[code & 0xf];
}

} // namespace

bool TerminalText::isTerminal(int fd)
{
    if (fd < 0 || fd > 2)
        return ::isatty(fd) == 1;
    int known = g_terminal[fd].load(std::memory_order_relaxed);
    if (known < 0) {
        known = ::isatty(fd) == 1 ? 1 : 0;
        g_terminal[fd].store(known, std::memory_order_relaxed);
    }
    return known == 1;
}

QByteArray TerminalText::escapeControls(const QByteArray &utf8)
{
    QByteArray out;
    out.reserve(utf8.size());
    const auto *bytes = reinterpret_cast<const unsigned char *>(utf8.constData());
    const qsizetype size = utf8.size();
    for (qsizetype i = 0; i < size; ++i) {
        const unsigned char byte = bytes[i];
        if (byte == '\r' && i + 1 < size && bytes[i + 1] == '\n') {
            out += '\r'; // a CRLF line end moves to the next line: nothing is overwritten
        } else if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) {
            appendEscape(out, byte);
        } else if (byte == 0xc2 && i + 1 < size && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9f) {
            // U+0080..U+009F in UTF-8: the C1 controls (CSI is U+009B), which terminals obey too.
            appendEscape(out, bytes[i + 1]);
            ++i;
        } else {
            out += char(byte);
        }
    }
    return out;
}

QByteArray TerminalText::forDescriptor(int fd, const QByteArray &utf8)
{
    return isTerminal(fd) ? escapeControls(utf8) : utf8;
}

} // namespace buzz::cli
