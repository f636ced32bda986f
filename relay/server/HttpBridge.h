#pragma once

#include "relay/auth/HttpAuthenticator.h"
#include "relay/auth/RelayMembership.h"
#include "relay/server/HttpReply.h"
#include "relay/server/OrderedReply.h"
#include "relay/server/ServerContext.h"

#include <QObject>
#include <QPointer>
#include <QTcpSocket>

#include <memory>
#include <string>
#include <unordered_map>

class QHttpServerRequest;
class QHttpServerResponder;

namespace buzz::relay {

// POST /events, /query, /count (docs/buzz-protocol.md §HTTP bridge). The network thread copies the
// request and parks the responder; NIP-98, parsing and the engine call run on the worker pool; the
// reply is written back on the network thread (or dropped if the client went away).
class HttpBridge : public QObject
{
    Q_OBJECT
public:
    enum class Endpoint { Events, Query, Count };

    HttpBridge(const ServerContext &context, HttpAuthenticator &authenticator,
               QObject *parent = nullptr);
    ~HttpBridge() override;

    void handle(Endpoint endpoint, std::string community, const QHttpServerRequest &request,
                QHttpServerResponder &&responder);

    // The request as the worker sees it: plain copies, no Qt objects tied to the socket.
    struct Request
    {
        Endpoint endpoint = Endpoint::Events;
        std::string path;
        std::string community;
        std::string host; // the Host header the community was resolved from (NIP-98 `u`)
        std::string authorization;
        std::string devPubkey;
        std::string body;
    };
    // Blocking: auth (NIP-98, replay, relay membership when `membership` is set), parse, engine.
    // Public so tests can drive it without sockets.
    static HttpReply process(const Request &request, HttpAuthenticator &authenticator,
                             RelayEngine &engine, const RelayMembership *membership = nullptr);

private:
    struct Pending
    {
        OrderedReply reply;
        std::string route;
    };
    void respond(std::uint64_t ticket, HttpReply reply);

    const ServerContext &m_context;
    HttpAuthenticator &m_authenticator;
    std::unordered_map<std::uint64_t, Pending> m_pending;
    std::uint64_t m_nextTicket = 1;
};

} // namespace buzz::relay
