#include "IdentityCommands.h"

#include "CliContext.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>

namespace buzz::cli {

namespace {

QJsonObject identityJson(const canvas::Identity &identity, bool showSecret)
{
    QJsonObject object {{QStringLiteral("pubkey"), identity.publicKeyHex()},
                        {QStringLiteral("npub"), identity.npub()},
                        {QStringLiteral("source"), identity.sourceName()},
                        {QStringLiteral("storage"), identity.storageDescription()}};
    if (showSecret)
        object.insert(QStringLiteral("nsec"), identity.nsec());
    return object;
}

QByteArray readStdin()
{
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return {};
    return input.readAll();
}

} // namespace

QCoro::Task<int> IdentityCommands::identity(CliContext &context)
{
    const QString sub = context.args().word(1);
    const bool showSecret = context.args().flag(QStringLiteral("show-secret"));
    if (sub == QLatin1String("show")) {
        if (!co_await context.loadIdentity(true))
            co_return context.exitCode();
        CliContext::printJson(identityJson(context.identity(), showSecret));
        co_return ExitCode::Ok;
    }
    if (sub == QLatin1String("generate") || sub == QLatin1String("import")) {
        QString problem;
        if (!CliContext::ensureIdentityDir(problem))
            co_return context.error(QStringLiteral("other"), problem, ExitCode::Other);
    }
    if (sub == QLatin1String("generate")) {
        if (!co_await context.identity().generate())
            co_return context.error(QStringLiteral("other"),
                                    QStringLiteral("could not store the new key: ")
                                        + context.identity().lastError(),
                                    ExitCode::Other);
        CliContext::printJson(identityJson(context.identity(), showSecret));
        co_return ExitCode::Ok;
    }
    if (sub == QLatin1String("import")) {
        // The key from an argument, --key, or stdin ("-" or nothing): never from the process list
        // if avoidable.
        QString key = context.args().option(QStringLiteral("key")).value_or(context.args().word(2));
        if (key.isEmpty() || key == QLatin1String("-"))
            key = QString::fromUtf8(readStdin()).trimmed();
        if (key.isEmpty())
            co_return context.usageError(
                QStringLiteral("identity import needs a hex or nsec key (argument or stdin)"));
        const auto imported = co_await context.identity().import(key);
        if (!imported) {
            const bool invalid = imported.error().startsWith(QLatin1String("invalid"));
            co_return context.error(invalid ? QStringLiteral("usage") : QStringLiteral("other"),
                                    imported.error(), invalid ? ExitCode::Usage : ExitCode::Other);
        }
        CliContext::printJson(identityJson(context.identity(), showSecret));
        co_return ExitCode::Ok;
    }
    co_return context.usageError(QStringLiteral("usage: identity show|generate|import"));
}

QCoro::Task<int> IdentityCommands::event(CliContext &context)
{
    const QString sub = context.args().word(1);
    if (sub == QLatin1String("sign"))
        co_return co_await sign(context);
    if (sub == QLatin1String("verify"))
        co_return verify(context);
    co_return context.usageError(QStringLiteral("usage: event sign|verify (reads stdin)"));
}

QCoro::Task<int> IdentityCommands::sign(CliContext &context)
{
    if (!co_await context.loadIdentity(true))
        co_return context.exitCode();
    const QByteArray input = readStdin();
    nlohmann::json templ =
        nlohmann::json::parse(input.constBegin(), input.constEnd(), nullptr, false);
    if (!templ.is_object())
        co_return context.usageError(QStringLiteral(
            "event sign: stdin must be a JSON object {kind, content, tags, created_at?}"));
    int kind = nostr::kinds::kTextNote;
    std::string content;
    std::int64_t createdAt = 0;
    nostr::Tags tags;
    try {
        kind = templ.value("kind", nostr::kinds::kTextNote);
        content = templ.value("content", std::string());
        createdAt = templ.contains("created_at") ? templ["created_at"].get<std::int64_t>()
                                                 : QDateTime::currentSecsSinceEpoch();
        if (templ.contains("tags"))
            tags = templ["tags"].get<nostr::Tags>();
    } catch (const nlohmann::json::exception &error) {
        co_return context.usageError(QStringLiteral("event sign: ")
                                     + QString::fromUtf8(error.what()));
    }
    if (kind < 0 || kind > 65535)
        co_return context.usageError(QStringLiteral("event sign: kind must be in 0..65535"));
    // NIP-01's created_at is a unix time in seconds; relays reject a negative one.
    if (createdAt < 0)
        co_return context.usageError(
            QStringLiteral("event sign: created_at must not be negative (got %1)").arg(createdAt));
    const nostr::Event event = context.identity().secretKey()->signedEvent(
        kind, createdAt, std::move(tags), std::move(content));
    CliContext::printRaw(QByteArray::fromStdString(event.toJson()) + '\n');
    co_return ExitCode::Ok;
}

int IdentityCommands::verify(CliContext &context)
{
    Q_UNUSED(context)
    bool allValid = true;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        nlohmann::json result = nlohmann::json::object();
        auto event = nostr::Event::fromJson(std::string_view(line));
        if (!event) {
            result["valid"] = false;
            result["id"] = nullptr;
            result["error"] = event.error();
        } else {
            const auto error = event->verificationError();
            result["valid"] = !error;
            result["id"] = event->id;
            if (error)
                result["error"] = *error;
        }
        allValid = allValid && result["valid"].get<bool>();
        // printRaw: an error may quote the input, which must not drive a terminal either.
        CliContext::printRaw(QByteArray::fromStdString(result.dump() + "\n"));
    }
    // Invalid input is not an error of the tool, but scripts want to branch on it.
    return allValid ? ExitCode::Ok : ExitCode::Other;
}

} // namespace buzz::cli
