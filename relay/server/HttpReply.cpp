#include "relay/server/HttpReply.h"

#include "relay/server/OrderedReply.h"

#include <QHttpServerResponder>
#include <QTcpSocket>

#include <nlohmann/json.hpp>

namespace buzz::relay {

HttpReply HttpReply::error(int status, std::string_view message)
{
    nlohmann::ordered_json body;
    body["error"] = message;
    return json(body.dump(), status);
}

HttpReply HttpReply::json(std::string body, int status)
{
    HttpReply reply;
    reply.status = status;
    reply.body = std::move(body);
    return reply;
}

HttpReply HttpReply::text(std::string body, QByteArray contentType, int status)
{
    HttpReply reply;
    reply.status = status;
    reply.body = std::move(body);
    reply.contentType = std::move(contentType);
    return reply;
}

void writeReply(QHttpServerResponder &responder, HttpReply reply)
{
    OrderedReply(std::move(responder)).send(std::move(reply));
}

void writeReplyNow(QHttpServerResponder &responder, const HttpReply &reply)
{
    // Without TCP_NODELAY a reply that leaves in more than one write waits for the client's delayed
    // ACK (~40 ms) before its tail is sent.
    if (QTcpSocket *socket = responder.socket())
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // Headers are dynamic (route header, Retry-After), so the initializer-list write() overloads
    // do not fit; write the parts instead.
    responder.writeStatusLine(QHttpServerResponder::StatusCode(reply.status));
    responder.writeHeader("Content-Type", reply.contentType);
    responder.writeHeader("Content-Length", QByteArray::number(qsizetype(reply.body.size())));
    for (const auto &[name, value] : reply.headers)
        responder.writeHeader(name, value);
    responder.writeBody(reply.body.data(), qint64(reply.body.size()));
}

} // namespace buzz::relay
