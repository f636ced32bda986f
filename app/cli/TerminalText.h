#pragma once

#include <QByteArray>

namespace buzz::cli {

// What the CLI writes where a person reads it. A canvas, a relay's message or a route header is
// someone else's text, and on a terminal control characters are commands: ESC ] 0 ; … retitles
// the window, OSC 52 writes the clipboard, ESC [ … moves the cursor over what was printed, CR
// overwrites a line. So on a terminal every control character except newline, tab and the CR of
// a CRLF line end — C0, DEL and the C1 range U+0080–U+009F — is written as a visible `\u00XX`;
// into a pipe or a file the bytes are left exactly as they are (scripts get the canvas byte for
// byte).
class TerminalText
{
public:
    // Whether `fd` is a terminal (isatty), asked once per descriptor.
    static bool isTerminal(int fd);
    // `utf8` with the control characters escaped as above.
    static QByteArray escapeControls(const QByteArray &utf8);
    // escapeControls(utf8) when `fd` is a terminal, else `utf8` unchanged.
    static QByteArray forDescriptor(int fd, const QByteArray &utf8);
};

} // namespace buzz::cli
