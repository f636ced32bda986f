#include "CliArguments.h"

namespace buzz::cli {

const QSet<QString> &CliArguments::flagNames()
{
    static const QSet<QString> names {
        QStringLiteral("trace"),         QStringLiteral("version"),  QStringLiteral("help"),
        QStringLiteral("unconditional"), QStringLiteral("profiles"), QStringLiteral("private"),
        QStringLiteral("show-secret"),   QStringLiteral("json")};
    return names;
}

const QSet<QString> &CliArguments::valueNames()
{
    static const QSet<QString> names {
        QStringLiteral("relay"),      QStringLiteral("private-key"),
        QStringLiteral("channel"),    QStringLiteral("content"),
        QStringLiteral("revision"),   QStringLiteral("limit"),
        QStringLiteral("name"),       QStringLiteral("about"),
        QStringLiteral("type"),       QStringLiteral("key"),
        QStringLiteral("timeout"),    QStringLiteral("expected-revision"),
        QStringLiteral("admin-token")};
    return names;
}

bool CliArguments::parse(const QStringList &arguments)
{
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &argument = arguments.at(i);
        if (argument == QLatin1String("--")) {
            m_positional += arguments.mid(i + 1);
            break;
        }
        if (!argument.startsWith(QLatin1String("--")) || argument == QLatin1String("-")) {
            m_positional << argument;
            continue;
        }
        QString name = argument.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        if (flagNames().contains(name)) {
            if (inlineValue) {
                m_error = QStringLiteral("option --%1 takes no value").arg(name);
                return false;
            }
            m_flags.insert(name);
        } else if (valueNames().contains(name)) {
            if (!inlineValue) {
                if (i + 1 >= arguments.size()) {
                    m_error = QStringLiteral("option --%1 needs a value").arg(name);
                    return false;
                }
                inlineValue = arguments.at(++i);
            }
            m_options.insert(name, *inlineValue);
        } else {
            m_error = QStringLiteral("unknown option --%1").arg(name);
            return false;
        }
    }
    return true;
}

std::optional<QString> CliArguments::option(const QString &name) const
{
    auto it = m_options.constFind(name);
    if (it == m_options.constEnd())
        return std::nullopt;
    return *it;
}

} // namespace buzz::cli
