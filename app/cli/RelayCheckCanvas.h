#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

#include <vector>

namespace buzz::cli {

// A canvas read of the throwaway channel as `relay check` made it.
struct HeadRead
{
    ProbeAnswer answer;
    std::vector<nostr::Event> events; // the answer's canvas revisions, in the relay's order
    QString id; // the first one's id: the head; empty when there is none
};

// A write of the throwaway channel's canvas: the event and the relay's answer.
struct CanvasWrite
{
    nostr::Event event;
    ProbeAnswer answer;
    bool accepted = false;
};

// The canvas reads and writes the groups share. Reads are newest first, strong (the writer) or
// routed (a display read a replica may serve); events are parsed, not verified: a relay check
// reports what the relay said. Writes extend context.head.
class RelayCheckCanvas
{
public:
    static QCoro::Task<HeadRead> head(RelayCheckContext &context, bool strong);
    static QCoro::Task<HeadRead> history(RelayCheckContext &context, bool strong, int limit);
    // A canvas revision of the throwaway channel, signed by the probe, naming `expected` (an id
    // or "none") as its base.
    static nostr::Event revision(const RelayCheckContext &context, std::int64_t createdAt,
                                 std::string expected, std::string content);
    // A revision based on context.head, stamped a second after it (or now, if later); an
    // accepted one becomes context.head.
    static QCoro::Task<CanvasWrite> writeOnHead(RelayCheckContext &context, std::string content);
};

} // namespace buzz::cli
