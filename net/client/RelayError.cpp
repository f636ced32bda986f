#include "net/client/RelayError.h"

#include <QCoreApplication>

namespace buzz::client {

RelayError RelayError::make(Kind kind, QString message, QString detail, int httpStatus)
{
    RelayError error;
    error.kind = kind;
    error.httpStatus = httpStatus;
    error.message = std::move(message);
    error.detail = detail.isEmpty() ? error.message : std::move(detail);
    return error;
}

bool RelayError::isConflict() const
{
    return kind == Kind::Conflict || message.contains(QLatin1String("conflict:"));
}

QString RelayError::shortText() const
{
    if (isUnreachable())
        return QCoreApplication::translate("buzz::client::RelayError", "Can't reach the relay.");
    return detail;
}

QString RelayError::longText() const
{
    if (isUnreachable())
        return QCoreApplication::translate(
            "buzz::client::RelayError",
            "Can't reach the relay — check your VPN or network connection.");
    return detail;
}

QString RelayError::cliCategory() const
{
    switch (kind) {
    case Kind::Network:
    case Kind::Timeout:
        return QStringLiteral("network");
    case Kind::Auth:
        return QStringLiteral("auth");
    case Kind::Conflict:
        return QStringLiteral("conflict");
    case Kind::NotFound:
        return QStringLiteral("not_found");
    case Kind::BadRequest:
        // Rejected locally before anything was sent: the caller's input is wrong.
        return httpStatus > 0 ? QStringLiteral("relay") : QStringLiteral("usage");
    case Kind::Retryable:
        return QStringLiteral("relay");
    case Kind::Internal:
        return httpStatus > 0 ? QStringLiteral("relay") : QStringLiteral("other");
    }
    return QStringLiteral("other");
}

int RelayError::cliExitCode() const
{
    switch (kind) {
    case Kind::BadRequest:
        return httpStatus > 0 ? 2 : 1;
    case Kind::Network:
    case Kind::Timeout:
    case Kind::Retryable:
        return 2;
    case Kind::Auth:
        return 3;
    case Kind::Conflict:
        return 5;
    case Kind::NotFound:
        return 1;
    case Kind::Internal:
        return httpStatus > 0 ? 2 : 4;
    }
    return 4;
}

QString RelayError::kindName() const
{
    switch (kind) {
    case Kind::Network:
        return QStringLiteral("network");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::Auth:
        return QStringLiteral("auth");
    case Kind::BadRequest:
        return QStringLiteral("bad_request");
    case Kind::Conflict:
        return QStringLiteral("conflict");
    case Kind::Retryable:
        return QStringLiteral("retryable");
    case Kind::NotFound:
        return QStringLiteral("not_found");
    case Kind::Internal:
        return QStringLiteral("internal");
    }
    return QStringLiteral("internal");
}

} // namespace buzz::client
