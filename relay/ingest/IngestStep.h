#pragma once

#include "net/nostr/Event.h"
#include "relay/ingest/CanvasCas.h"
#include "relay/model/Channel.h"
#include "relay/model/IngestResult.h"
#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"
#include "relay/store/EventLookup.h"
#include "relay/store/WriteTransaction.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::ingest {

class ChannelAdmin;
class RelayEmitter;

// One event on its way through the checks of docs/buzz-protocol.md §Ingest order, inside its
// write transaction: what the steps have found so far, handed from step to step and to the
// event's kind rule (KindRuleTable).
struct IngestStep
{
    store::WriteTransaction &tx;
    const nostr::Event &event;
    const std::string &community;
    std::int64_t now;
    ChannelAdmin &admin;
    RelayEmitter &emitter;

    store::EventLookup &reader() const { return tx.reader(); }
    const model::Channel *channelRow() const { return channel ? &*channel : nullptr; }

    std::optional<std::string> channelId; // step 5: the channel the event is scoped to
    std::string newChannelId; // kind 9007: the channel it creates
    std::optional<store::EventLookup::Found> target; // reactions, deletions: the event named
    std::optional<model::Channel> channel; // the channel's row, when it has one
    CanvasCas::Expectation expectation; // canvases: the revision the author saw
    std::string emoji; // reactions: the content, "+" when empty
};

// What a kind rule's check answers: nothing (go on) or the event's refusal.
using Refusal = std::optional<IngestResult>;

} // namespace buzz::relay::ingest
