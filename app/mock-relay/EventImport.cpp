#include "app/mock-relay/EventImport.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace buzz::relay {

namespace {
bool isBlank(const std::string &line)
{
    return std::all_of(line.begin(), line.end(),
                       [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

bool isDuplicate(IngestResult::Status status)
{
    return status == IngestResult::Status::Duplicate
        || status == IngestResult::Status::RejectedDuplicate;
}
} // namespace

EventImport::EventImport(RelayEngine &engine, Options options)
    : m_engine(engine)
    , m_options(std::move(options))
{
    if (m_options.threads == 0)
        m_options.threads = std::max(1u, std::thread::hardware_concurrency());
    m_options.chunkLines = std::max<std::size_t>(1, m_options.chunkLines);
}

EventImport::Report EventImport::run(std::istream &input)
{
    Report report;
    std::vector<Pending> deferred;
    // The chunk being written while the next one is read and verified.
    std::unique_ptr<Batch> writing;
    const auto finishWriting = [&] {
        if (!writing)
            return;
        auto refused = collect(*writing, report);
        std::move(refused.begin(), refused.end(), std::back_inserter(deferred));
        writing.reset();
    };
    std::size_t number = 0;
    std::string text;
    bool more = true;
    while (more && !report.stopped) {
        std::vector<Line> chunk;
        while (chunk.size() < m_options.chunkLines && (more = bool(std::getline(input, text)))) {
            ++number;
            if (!isBlank(text))
                chunk.push_back(Line {number, std::move(text)});
        }
        report.lines += chunk.size();
        std::vector<Pending> verified = verify(chunk);
        std::vector<Pending> valid;
        valid.reserve(verified.size());
        for (auto &entry : verified) {
            if (entry.event) {
                valid.push_back(std::move(entry));
                continue;
            }
            report.refused.push_back(Refusal {entry.line, std::move(entry.message)});
            if (m_options.stopOnError) {
                report.stopped = true;
                break; // what precedes it in this chunk is still stored
            }
        }
        auto next = submit(std::move(valid)); // queued after the chunk before it
        finishWriting();
        writing = std::move(next);
    }
    finishWriting();
    // Again, in line order, while a pass stores anything: what a refused event depended on may
    // have arrived after it.
    while (!deferred.empty()) {
        const std::size_t before = deferred.size();
        deferred = store(std::move(deferred), report);
        if (deferred.size() == before)
            break;
    }
    for (auto &entry : deferred)
        report.refused.push_back(Refusal {entry.line, std::move(entry.message)});
    std::sort(report.refused.begin(), report.refused.end(),
              [](const Refusal &a, const Refusal &b) { return a.line < b.line; });
    return report;
}

std::vector<EventImport::Pending> EventImport::verify(std::vector<Line> &lines) const
{
    std::vector<Pending> out(lines.size());
    const auto work = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            out[i].line = lines[i].number;
            auto parsed = nostr::Event::fromJson(std::string_view(lines[i].text));
            if (!parsed) {
                out[i].message = "invalid: " + parsed.error();
                continue;
            }
            if (auto error = parsed->verificationError()) {
                out[i].message = "invalid: " + *error;
                continue;
            }
            out[i].event = std::make_shared<const nostr::Event>(std::move(parsed).value());
        }
    };
    const std::size_t threads = std::min<std::size_t>(m_options.threads, lines.size());
    if (threads <= 1) {
        work(0, lines.size());
        return out;
    }
    // Contiguous slices: each thread touches its own entries only.
    std::vector<std::thread> workers;
    const std::size_t slice = (lines.size() + threads - 1) / threads;
    for (std::size_t begin = 0; begin < lines.size(); begin += slice)
        workers.emplace_back(work, begin, std::min(lines.size(), begin + slice));
    for (auto &worker : workers)
        worker.join();
    return out;
}

std::unique_ptr<EventImport::Batch> EventImport::submit(std::vector<Pending> events)
{
    auto batch = std::make_unique<Batch>();
    batch->events = std::move(events);
    batch->results.resize(batch->events.size());
    batch->outstanding = batch->events.size();
    Batch *raw = batch.get();
    for (std::size_t i = 0; i < raw->events.size(); ++i) {
        m_engine.restoreAsync(raw->events[i].event, m_options.community,
                              [raw, i](IngestResult result) {
                                  std::lock_guard guard(raw->mutex);
                                  raw->results[i] = std::move(result);
                                  if (--raw->outstanding == 0)
                                      raw->finished.notify_one();
                              });
    }
    return batch;
}

std::vector<EventImport::Pending> EventImport::collect(Batch &batch, Report &report)
{
    {
        std::unique_lock lock(batch.mutex);
        batch.finished.wait(lock, [&] { return batch.outstanding == 0; });
    }
    std::vector<Pending> refused;
    for (std::size_t i = 0; i < batch.events.size(); ++i) {
        const IngestResult &result = batch.results[i];
        if (result.status == IngestResult::Status::Stored) {
            ++report.imported;
        } else if (isDuplicate(result.status)) {
            ++report.duplicates;
        } else {
            batch.events[i].message = result.message;
            refused.push_back(std::move(batch.events[i]));
        }
    }
    return refused;
}

} // namespace buzz::relay
