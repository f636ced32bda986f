#include "canvas/CanvasWriteRules.h"

#include "canvas/ChannelService.h"

namespace buzz::canvas {

CanvasWriteRules::Access CanvasWriteRules::access(const ChannelInfo &channel)
{
    if (channel.id.isEmpty())
        return Access::NoChannel;
    // Step 8: channel access for writes = an active member, or an open channel. The relay knows no
    // DM exception: a DM is a private channel, so its members may write its canvas.
    if (!channel.isMember && channel.isPrivate)
        return Access::NotMember;
    // Step 11.
    if (channel.archived)
        return Access::Archived;
    return Access::Allowed;
}

std::optional<client::RelayError> CanvasWriteRules::checkContentSize(qsizetype utf8Bytes)
{
    if (utf8Bytes <= kMaxContentBytes)
        return std::nullopt;
    const QString message =
        QStringLiteral("invalid: content exceeds maximum size of %1 bytes (got %2)")
            .arg(kMaxContentBytes)
            .arg(utf8Bytes);
    return client::RelayError::make(client::RelayError::Kind::BadRequest, message, message);
}

std::optional<qsizetype> CanvasWriteRules::refusedSize(const client::RelayError &error)
{
    static const QLatin1String kPrefix("content exceeds maximum size of ");
    const qsizetype at = error.message.indexOf(kPrefix);
    if (at < 0)
        return std::nullopt;
    const qsizetype got = error.message.indexOf(QLatin1String("(got "), at);
    if (got < 0)
        return kMaxContentBytes + 1;
    const qsizetype end = error.message.indexOf(QLatin1Char(')'), got);
    bool ok = false;
    const qsizetype bytes = error.message.mid(got + 5, end - got - 5).toLongLong(&ok);
    return ok ? bytes : kMaxContentBytes + 1;
}

qsizetype CanvasWriteRules::utf8Size(QStringView text)
{
    // Counted, not converted: the editor asks on every pause in typing, and a 200 KB canvas must
    // not cost a 600 KB copy each time.
    qsizetype bytes = 0;
    for (const QChar c : text) {
        const char16_t unit = c.unicode();
        if (unit < 0x80)
            bytes += 1;
        else if (unit < 0x800 || QChar::isSurrogate(unit))
            bytes += 2; // a surrogate pair is 4 bytes: 2 per half
        else
            bytes += 3;
    }
    return bytes;
}

std::optional<client::RelayError> CanvasWriteRules::checkContent(const QString &content)
{
    // A UTF-16 unit is at most three UTF-8 bytes: short texts need no counting.
    if (content.size() * 3 <= kMaxContentBytes)
        return std::nullopt;
    return checkContentSize(utf8Size(content));
}

} // namespace buzz::canvas
