#pragma once

#include "net/nostr/Event.h"
#include "relay/RelayEngine.h"

#include <condition_variable>
#include <cstddef>
#include <istream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace buzz::relay {

// buzz-mock-relay import (relay/README.md "Export and import"): JSON Lines, one signed event a
// line, as `export` writes them. Lines are read in chunks; each chunk is parsed and its ids and
// signatures verified on every core, then its events are queued, in line order, on the relay's
// group commit through RelayEngine::restoreAsync (the ingest rules, so channels, members, canvas
// heads and the search index follow); the next chunk is read and verified while one is written. An
// event the rules refuse is tried again after the rest, since an export in (created_at, id) order
// can put an event before one it depends on (a reaction whose target's author clock ran ahead);
// what still fails is reported by line.
class EventImport
{
public:
    struct Options
    {
        std::string community = "local";
        // Stop at the first line that is not a valid signed event (the events before it are
        // imported); by default such a line is reported and the import goes on.
        bool stopOnError = false;
        unsigned threads = 0; // verification threads; 0 = one per core
        std::size_t chunkLines = 8192;
    };
    struct Refusal
    {
        std::size_t line = 0; // 1-based
        std::string message;
    };
    struct Report
    {
        std::size_t lines = 0; // non-blank lines read
        std::size_t imported = 0;
        std::size_t duplicates = 0; // already in the store (an import run twice)
        std::vector<Refusal> refused; // by line
        bool stopped = false; // --stop-on-error ended it early
    };

    EventImport(RelayEngine &engine, Options options);
    Report run(std::istream &input);

private:
    struct Line
    {
        std::size_t number = 0;
        std::string text;
    };
    struct Pending
    {
        std::size_t line = 0;
        std::shared_ptr<const nostr::Event> event;
        std::string message; // the last refusal
    };

    // Parses and verifies `lines` on the worker threads; an entry without event is refused, its
    // message in `message`.
    std::vector<Pending> verify(std::vector<Line> &lines) const;
    // Events queued on the group commit, their answers arriving on the writer's thread.
    struct Batch
    {
        std::vector<Pending> events;
        std::vector<IngestResult> results;
        std::mutex mutex;
        std::condition_variable finished;
        std::size_t outstanding = 0;
    };
    // Queues every event in order without waiting.
    std::unique_ptr<Batch> submit(std::vector<Pending> events);
    // Waits until each event of `batch` was committed or refused; returns those refused by the
    // rules (messages set), counting the others into `report`.
    static std::vector<Pending> collect(Batch &batch, Report &report);
    std::vector<Pending> store(std::vector<Pending> events, Report &report)
    {
        return collect(*submit(std::move(events)), report);
    }

    RelayEngine &m_engine;
    Options m_options;
};

} // namespace buzz::relay
