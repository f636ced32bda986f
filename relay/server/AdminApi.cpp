#include "relay/server/AdminApi.h"

#include "relay/RelayEngine.h"
#include "relay/replication/ReplicaTier.h"
#include "relay/server/OrderedReply.h"
#include "relay/server/ServerContext.h"

#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QLoggingCategory>
#include <QPointer>
#include <QTcpSocket>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

Q_LOGGING_CATEGORY(lcAdmin, "buzz.relay.admin")

namespace buzz::relay {

namespace {
constexpr std::int64_t kMaxWaitMs = 60'000;
constexpr std::int64_t kMaxClockOffsetMs = AdminApi::kMaxClockOffsetDays * 24 * 3600 * 1000;

std::optional<nlohmann::json> parseObject(const std::string &body)
{
    if (body.empty())
        return nlohmann::json::object();
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return std::nullopt;
    return json;
}

std::optional<std::int64_t> integerField(const nlohmann::json &object, const char *name)
{
    const auto it = object.find(name);
    if (it == object.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

HttpReply ok(nlohmann::json body = {{"ok", true}})
{
    return HttpReply::json(body.dump());
}

replication::ReplicaTier *replicasOf(RelayEngine &engine)
{
    return engine.replicaTier();
}

// Answers on the network thread; the work (which may block) runs on the worker pool.
template<class Work>
void answerOffThread(const ServerContext &context, QObject *receiver,
                     QHttpServerResponder &&responder, Work work)
{
    auto parked = std::make_shared<OrderedReply>(std::move(responder));
    context.runOffThread(receiver, std::move(work),
                         [parked](HttpReply reply) { parked->send(std::move(reply)); });
}
} // namespace

HttpReply AdminApi::refusal(const QHttpServerRequest &request, const std::string &token)
{
    if (!request.remoteAddress().isLoopback())
        return HttpReply::error(403, "admin API is only available on loopback");
    const QByteArray authorization = request.value("Authorization");
    if (token.empty() || authorization != QByteArray("Bearer ") + QByteArray::fromStdString(token))
        return HttpReply::error(401, "admin API requires the bearer token");
    return HttpReply {0, {}, {}, {}};
}

HttpReply AdminApi::state(RelayEngine &engine)
{
    auto *replicas = replicasOf(engine);
    if (!replicas)
        return HttpReply::error(503, "relay store is not open");
    return HttpReply::json(replicas->state().dump());
}

HttpReply AdminApi::replicaAction(RelayEngine &engine, int index, const std::string &action,
                                  const std::string &body)
{
    auto *replicas = replicasOf(engine);
    if (!replicas || index < 0 || index >= replicas->size())
        return HttpReply::error(404, "no such replica");
    auto &replica = replicas->replicaAt(index);
    bool done = false;
    if (action == "pause") {
        done = replica.setPaused(true);
    } else if (action == "resume") {
        done = replica.setPaused(false);
    } else if (action == "lag") {
        const auto object = parseObject(body);
        const auto ms = object ? integerField(*object, "ms") : std::nullopt;
        if (!ms || *ms < 0)
            return HttpReply::error(400, "lag needs {\"ms\": non-negative integer}");
        done = replica.setLagMs(*ms);
    } else {
        return HttpReply::error(404, "not found");
    }
    // Only a real standby can refuse (unreachable, or not allowed to pause replay).
    if (!done)
        return HttpReply::error(503, replica.name() + " did not accept " + action);
    qCInfo(lcAdmin) << replica.name().c_str() << action.c_str();
    return ok({{"replica", index}, {"paused", replica.paused()}, {"lag_ms", replica.lagMs()}});
}

HttpReply AdminApi::faults(RelayEngine &engine, const std::string &body)
{
    auto *replicas = replicasOf(engine);
    const auto object = parseObject(body);
    if (!replicas || !object)
        return HttpReply::error(
            400, "faults needs {\"replica\":i,\"kind\":\"error|timeout|busy\",\"count\":N}");
    const auto index = integerField(*object, "replica");
    const auto count = integerField(*object, "count").value_or(1);
    const auto kindIt = object->find("kind");
    const auto kind = kindIt != object->end() && kindIt->is_string()
        ? replication::faultKindFromName(kindIt->get<std::string>())
        : std::nullopt;
    if (!index || *index < 0 || *index >= replicas->size())
        return HttpReply::error(404, "no such replica");
    if (!kind || count < 0 || count > 1'000'000)
        return HttpReply::error(
            400, "faults needs {\"replica\":i,\"kind\":\"error|timeout|busy\",\"count\":N}");
    // A plain copy: GCC 12 cannot see through the optional at -O2 and warns maybe-uninitialized.
    const replication::FaultKind faultKind = *kind;
    auto &faults = replicas->replicaAt(int(*index)).faults();
    faults.add(faultKind, int(count));
    qCInfo(lcAdmin) << "fault" << replication::faultKindName(faultKind).data() << "x" << count
                    << "on replica" << *index;
    return ok({{"replica", *index},
               {"kind", replication::faultKindName(faultKind)},
               {"pending", faults.pending(faultKind)}});
}

HttpReply AdminApi::clock(RelayEngine &engine, const std::string &body)
{
    const auto object = parseObject(body);
    const auto offset = object ? integerField(*object, "offset_ms") : std::nullopt;
    if (!offset)
        return HttpReply::error(400, "clock needs {\"offset_ms\": integer}");
    // now + offset must stay representable wherever the relay computes with it (ms and s, plus
    // the ±900 s window and 960 s floor): a skew test needs minutes or days, never centuries.
    if (*offset < -kMaxClockOffsetMs || *offset > kMaxClockOffsetMs)
        return HttpReply::error(400,
                                "offset_ms must be between " + std::to_string(-kMaxClockOffsetMs)
                                    + " and " + std::to_string(kMaxClockOffsetMs) + " (one year)");
    engine.relayClock().setOffsetMs(*offset);
    qCInfo(lcAdmin) << "clock offset" << *offset << "ms";
    return ok({{"offset_ms", *offset}, {"now_ms", engine.relayClock().nowMs()}});
}

HttpReply AdminApi::budget(RelayEngine &engine, const std::string &body)
{
    auto *replicas = replicasOf(engine);
    const auto object = parseObject(body);
    const auto ms = object ? integerField(*object, "ms") : std::nullopt;
    if (!replicas || !ms || *ms < 0)
        return HttpReply::error(400, "budget needs {\"ms\": non-negative integer}");
    replicas->setBudgetMs(*ms);
    return ok({{"budget_ms", replicas->budgetMs()}});
}

HttpReply AdminApi::waitCaughtUp(RelayEngine &engine, const std::string &body)
{
    auto *replicas = replicasOf(engine);
    const auto object = parseObject(body);
    if (!replicas || !object)
        return HttpReply::error(400, "wait-caught-up needs {\"timeout_ms\": N}");
    const std::int64_t timeoutMs =
        std::clamp<std::int64_t>(integerField(*object, "timeout_ms").value_or(5000), 0, kMaxWaitMs);
    const bool caughtUp = replicas->waitCaughtUp(std::chrono::milliseconds(timeoutMs));
    nlohmann::json answer = replicas->state();
    answer["caught_up"] = caughtUp;
    return HttpReply::json(answer.dump(), caughtUp ? 200 : 504);
}

void AdminApi::install(QHttpServer &http, RelayEngine &engine, std::string token,
                       const ServerContext &context, QObject *receiver)
{
    if (token.empty())
        return;
    using Method = QHttpServerRequest::Method;
    const auto guarded = [&engine, token, context, receiver](auto work) {
        return [&engine, token, context, receiver, work](const QHttpServerRequest &request,
                                                         QHttpServerResponder &&responder) {
            if (HttpReply denied = refusal(request, token); denied.status != 0) {
                writeReply(responder, denied);
                return;
            }
            const std::string body = request.body().toStdString();
            answerOffThread(context, receiver, std::move(responder),
                            [&engine, work, body] { return work(engine, body); });
        };
    };
    http.route("/admin/state", Method::Get,
               guarded([](RelayEngine &e, const std::string &) { return state(e); }));
    http.route("/admin/faults", Method::Post, guarded(&AdminApi::faults));
    http.route("/admin/clock", Method::Post, guarded(&AdminApi::clock));
    http.route("/admin/budget", Method::Post, guarded(&AdminApi::budget));
    http.route("/admin/wait-caught-up", Method::Post, guarded(&AdminApi::waitCaughtUp));
    http.route("/admin/replicas/<arg>/<arg>", Method::Post,
               [&engine, token, context, receiver](int index, const QString &action,
                                                   const QHttpServerRequest &request,
                                                   QHttpServerResponder &&responder) {
                   if (HttpReply denied = refusal(request, token); denied.status != 0) {
                       writeReply(responder, denied);
                       return;
                   }
                   const std::string body = request.body().toStdString();
                   const std::string verb = action.toStdString();
                   answerOffThread(context, receiver, std::move(responder),
                                   [&engine, index, verb, body] {
                                       return replicaAction(engine, index, verb, body);
                                   });
               });
    qCInfo(lcAdmin) << "admin API enabled on loopback (/admin/*)";
}

} // namespace buzz::relay
