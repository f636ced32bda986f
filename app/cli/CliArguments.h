#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace buzz::cli {

// Command line of buzz-canvas-cli: positional words (the command path and its arguments) plus
// --options anywhere ("--name value" or "--name=value"). Flags take no value.
class CliArguments
{
public:
    // False with error() on an unknown option or a missing option value.
    bool parse(const QStringList &arguments);

    const QStringList &positional() const { return m_positional; }
    QString word(int index) const { return m_positional.value(index); }
    bool flag(const QString &name) const { return m_flags.contains(name); }
    std::optional<QString> option(const QString &name) const;
    QString error() const { return m_error; }

    static const QSet<QString> &flagNames();
    static const QSet<QString> &valueNames();

private:
    QStringList m_positional;
    QSet<QString> m_flags;
    QHash<QString, QString> m_options;
    QString m_error;
};

} // namespace buzz::cli
