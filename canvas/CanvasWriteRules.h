#pragma once

#include "net/client/RelayError.h"

#include <QString>
#include <QStringView>

#include <optional>

namespace buzz::canvas {

struct ChannelInfo;

// The relay's rules for writing a channel's canvas (kind 40100), in its ingest order
// (docs/buzz-protocol.md §Ingest order, relay/ingest/IngestPipeline): the one place the app and
// the CLI ask "can I edit this canvas" and
// "can I send this text". Nothing else decides it: the header's Edit button, the read-only notice,
// History's Restore and the CLI's can_edit_canvas all read these verdicts, so the app never claims
// "read-only" where the relay would accept the write (an open channel) nor offers an edit the relay
// will refuse.
class CanvasWriteRules
{
public:
    // Ingest step 2c: content over this many UTF-8 bytes is refused.
    static constexpr qsizetype kMaxContentBytes = 262144;

    enum class Access {
        Allowed, // a member of the channel, or anyone when the channel is open
        NotMember, // step 8: a private channel (DMs included) this identity is not
                   // in
        Archived, // step 11: archived channels refuse every canvas write
        NoChannel, // nothing to write to
    };

    // Step 8 before step 11, as the relay checks them: a non-member of an archived private channel
    // is told it is not a member.
    static Access access(const ChannelInfo &channel);
    static bool canWrite(const ChannelInfo &channel) { return access(channel) == Access::Allowed; }

    // Step 2c with the relay's wording ("invalid: content exceeds maximum size of 262144 bytes (got
    // N)"); nullopt when the text fits.
    static std::optional<client::RelayError> checkContentSize(qsizetype utf8Bytes);
    static std::optional<client::RelayError> checkContent(const QString &content);
    // The size the relay reported refusing (its step 2c message), from our check or its own.
    static std::optional<qsizetype> refusedSize(const client::RelayError &error);
    // The UTF-8 size of `text` without converting it (what the relay measures).
    static qsizetype utf8Size(QStringView text);
};

} // namespace buzz::canvas
