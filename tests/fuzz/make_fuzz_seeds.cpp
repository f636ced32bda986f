// make_fuzz_seeds DATA_DIR OUT_DIR: writes a small seed corpus per fuzz target into
// OUT_DIR/<target>/ from the shared vectors (tests/data/nip01-events.jsonl) plus hand-written
// frames, filters, signed NIP-98 headers and canvas texts. Seeds are generated into the build tree,
// never committed, so the corpora never grow in git.

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Nip98.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace buzz;

namespace {

constexpr std::int64_t kFuzzNow = 1'700'000'000; // the instant the NIP-98 and HTTP targets use
const std::string kChannel = "3f1c2b9e-0000-4000-8000-000000000000";

class Corpus
{
public:
    Corpus(fs::path root, std::string target)
        : m_dir(std::move(root) / std::move(target))
    {
        fs::create_directories(m_dir);
    }
    void add(const std::string &bytes)
    {
        std::ofstream(m_dir / ("seed-" + std::to_string(m_count++)), std::ios::binary) << bytes;
    }
    int count() const { return m_count; }

private:
    fs::path m_dir;
    int m_count = 0;
};

std::string joinParts(const std::vector<std::string> &parts)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += '\0';
        out += parts[i];
    }
    return out;
}

std::vector<std::string> filterSeeds(const std::vector<nostr::Event> &events)
{
    std::vector<std::string> filters = {
        R"({})",
        R"({"kinds":[40100],"#h":[")" + kChannel + R"("],"limit":1})",
        R"({"kinds":[40100],"#h":[")" + kChannel
            + R"("],"until":1700000000,"before_id":"9575a4ebf47cd792abc9b28c8cf9ef0511e7e749d14b51f0597c1590af23beee","limit":50})",
        R"({"kinds":[1,9,40100],"since":1690000000,"until":1800000000,"consistency":"strong"})",
        R"({"#e":["9575a4ebf47cd792abc9b28c8cf9ef0511e7e749d14b51f0597c1590af23beee"],"depth_limit":2,"since":1,"after_id":"9575a4ebf47cd792abc9b28c8cf9ef0511e7e749d14b51f0597c1590af23beee"})",
        R"({"kinds":[0],"search":"alice","limit":5})",
        R"({"kinds":[],"authors":[],"ids":[]})",
    };
    for (const auto &event : events)
        filters.push_back(R"({"ids":[")" + event.id + R"("],"authors":[")" + event.pubkey
                          + R"("],"kinds":[)" + std::to_string(event.kind) + "]}");
    return filters;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: make_fuzz_seeds DATA_DIR OUT_DIR\n";
        return 2;
    }
    const fs::path dataDir = argv[1];
    const fs::path outDir = argv[2];

    std::vector<nostr::Event> events;
    std::vector<std::string> eventTexts;
    std::ifstream vectors(dataDir / "nip01-events.jsonl");
    for (std::string line; std::getline(vectors, line);) {
        const auto record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.contains("event"))
            continue;
        eventTexts.push_back(record["event"].dump());
        if (auto event = nostr::Event::fromJson(record["event"]))
            events.push_back(*event);
    }
    if (events.empty()) {
        std::cerr << "no events in " << (dataDir / "nip01-events.jsonl") << "\n";
        return 1;
    }

    Corpus eventCorpus(outDir, "fuzz_event");
    for (const auto &text : eventTexts)
        eventCorpus.add(text);

    const auto filters = filterSeeds(events);
    Corpus filterCorpus(outDir, "fuzz_filter");
    for (const auto &filter : filters) {
        filterCorpus.add(filter);
        filterCorpus.add("[" + filter + "," + filters[1] + "]");
    }

    Corpus wsCorpus(outDir, "fuzz_ws_message");
    for (const auto &text : eventTexts) {
        wsCorpus.add(R"(["EVENT",)" + text + "]");
        wsCorpus.add(R"(["AUTH",)" + text + "]");
    }
    for (const auto &filter : filters) {
        wsCorpus.add(R"(["REQ","sub-1",)" + filter + "]");
        wsCorpus.add(R"(["COUNT","c",)" + filter + "," + filters[1] + "]");
    }
    wsCorpus.add(R"(["CLOSE","sub-1"])");

    const auto key = nostr::SecretKey::parse(std::string(63, '0') + "7").value();
    Corpus nip98Corpus(outDir, "fuzz_nip98");
    const std::string body = "[" + filters[1] + "]";
    for (const std::string path : {"/query", "/events", "/count"}) {
        const std::string url = "http://127.0.0.1:3000" + path;
        const auto header =
            nostr::nip98::buildAuthorizationHeader(key, url, "POST", body, kFuzzNow);
        nip98Corpus.add(joinParts({header, body, url, "POST"}));
        const auto bodyless =
            nostr::nip98::buildAuthorizationHeader(key, url, "POST", std::nullopt, kFuzzNow);
        nip98Corpus.add(joinParts({bodyless, "", url, "POST"}));
    }

    Corpus mergeCorpus(outDir, "fuzz_merge3");
    const std::string base = "# Plan\n\n- ship the relay\n- write the docs\n\nNotes here.\n";
    mergeCorpus.add(
        joinParts({base, "# Plan\n\n- ship the relay today\n- write the docs\n\nNotes here.\n",
                   "# Plan\n\n- ship the relay\n- write the docs\n\nNotes here and there.\n"}));
    mergeCorpus.add(joinParts({base, "# Plan\n\n- ship it\n", "# Plan\n\n- drop it\n"}));
    mergeCorpus.add(joinParts({"", "first\n", "second\n"}));
    mergeCorpus.add(joinParts({"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", "a\nb\nc\nd"}));
    mergeCorpus.add(joinParts({"one\ntwo", "one\ntwo\n", "zero\none\ntwo"}));

    // First byte: 0 raw /events, 1 re-signed /events, 2 /query, 3 /count (fuzz_http_body.cpp).
    Corpus httpCorpus(outDir, "fuzz_http_body");
    for (const auto &text : eventTexts) {
        httpCorpus.add('\0' + text);
        httpCorpus.add('\1' + text);
    }
    for (const std::string &expected : {std::string("none"), events.front().id}) {
        nostr::Event canvas;
        canvas.kind = 40100;
        canvas.createdAt = kFuzzNow;
        canvas.tags = {{"h", kChannel}, {"expected-revision", expected}};
        canvas.content = base;
        key.signEvent(canvas);
        httpCorpus.add('\1' + canvas.toJson());
    }
    for (const auto &filter : filters) {
        httpCorpus.add('\2' + ("[" + filter + "]"));
        httpCorpus.add('\3' + ("[" + filter + "]"));
    }

    // First byte: how the stream is split into reads (fuzz_http_head.cpp).
    Corpus headCorpus(outDir, "fuzz_http_head");
    const std::string host = "Host: 127.0.0.1:3000\r\n";
    headCorpus.add("\x07POST /query HTTP/1.1\r\n" + host
                   + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body
                   + "GET /health HTTP/1.1\r\n" + host + "\r\n");
    headCorpus.add("\x01POST /events HTTP/1.1\r\n" + host
                   + "Transfer-Encoding: chunked\r\n\r\n4\r\n[{}]\r\n0\r\n\r\n");
    headCorpus.add(
        "\x05GET / HTTP/1.1\r\n" + host
        + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n");
    headCorpus.add("\x02POST /count HTTP/1.1\r\n" + host + "Content-Length: 4000000000\r\n\r\n");

    std::cout << "seeds: fuzz_event " << eventCorpus.count() << ", fuzz_filter "
              << filterCorpus.count() << ", fuzz_ws_message " << wsCorpus.count() << ", fuzz_nip98 "
              << nip98Corpus.count() << ", fuzz_merge3 " << mergeCorpus.count()
              << ", fuzz_http_body " << httpCorpus.count() << ", fuzz_http_head "
              << headCorpus.count() << "\n";
    return 0;
}
