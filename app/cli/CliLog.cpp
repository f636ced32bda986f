#include "CliLog.h"

#include "TerminalText.h"

#include <QByteArray>
#include <QLoggingCategory>
#include <QString>

#include <atomic>
#include <cstdio>

#include <unistd.h>

namespace buzz::cli {

namespace {

std::atomic<bool> g_closed {false};

void writeLogLine(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_closed.load(std::memory_order_acquire) && type != QtFatalMsg)
        return;
    QByteArray line = "log: ";
    if (context.category && qstrcmp(context.category, "default") != 0) {
        line += context.category;
        line += ": ";
    }
    QByteArray text = message.toUtf8();
    text.replace('\n', ' '); // one message, one line: a reader splits stderr by lines
    line += text;
    line += '\n';
    line = TerminalText::forDescriptor(STDERR_FILENO, line);
    // One fwrite per line: stdio locks the stream, so lines from other threads never interleave.
    std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

void CliLog::install(bool verbose)
{
    if (!verbose)
        QLoggingCategory::setFilterRules(QStringLiteral("*.debug=false\n*.info=false"));
    qInstallMessageHandler(writeLogLine);
}

void CliLog::close()
{
    g_closed.store(true, std::memory_order_release);
}

} // namespace buzz::cli
