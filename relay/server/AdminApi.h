#pragma once

#include <cstdint>

// Fault injection for QA and tests (mock relay only): /admin/* on loopback, with a bearer token.
// Without --admin-token the routes do not exist (404 like any unknown path).
//
//   GET  /admin/state                      writer LSN, ring, budget, clock, per-replica state
//   POST /admin/replicas/{i}/pause|resume
//   POST /admin/replicas/{i}/lag           {"ms":N}
//   POST /admin/faults                     {"replica":i,"kind":"error|timeout|busy","count":N}
//   POST /admin/clock                      {"offset_ms":N}   shifts the relay's notion of now (|N|
//   ≤ 366 days) POST /admin/budget                     {"ms":N} BUZZ_REPLICA_READ_MAX_AGE_MS at
//   runtime POST /admin/wait-caught-up             {"timeout_ms":N}  200 when every replica caught
//   up, else 504

#include "relay/server/HttpReply.h"

#include <string>

class QHttpServer;
class QHttpServerRequest;
class QObject;

namespace buzz::relay {

class RelayEngine;
struct ServerContext;

class AdminApi
{
public:
    // POST /admin/clock accepts an offset within this many days of the real clock.
    static constexpr std::int64_t kMaxClockOffsetDays = 366;

    static void install(QHttpServer &http, RelayEngine &engine, std::string token,
                        const ServerContext &context, QObject *receiver);

    // 403 off loopback, 401 without the bearer token; empty body = allowed.
    static HttpReply refusal(const QHttpServerRequest &request, const std::string &token);
    static HttpReply replicaAction(RelayEngine &engine, int index, const std::string &action,
                                   const std::string &body);
    static HttpReply faults(RelayEngine &engine, const std::string &body);
    static HttpReply clock(RelayEngine &engine, const std::string &body);
    static HttpReply budget(RelayEngine &engine, const std::string &body);
    static HttpReply state(RelayEngine &engine);
    static HttpReply waitCaughtUp(RelayEngine &engine, const std::string &body);
};

} // namespace buzz::relay
