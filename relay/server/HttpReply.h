#pragma once

#include "relay/model/OutboundBudget.h"

#include <QByteArray>

#include <memory>
#include <string>
#include <utility>
#include <vector>

class QHttpServerResponder;

namespace buzz::relay {

// A complete HTTP answer computed off the network thread and written on it.
struct HttpReply
{
    int status = 200;
    std::string body;
    QByteArray contentType = "application/json";
    std::vector<std::pair<QByteArray, QByteArray>> headers;
    // The answer's share of the relay-wide outbound budget, held until it is written.
    std::shared_ptr<OutboundBudget::Hold> hold;

    // {"error":"<message>"} with the given status, as every bridge error upstream.
    static HttpReply error(int status, std::string_view message);
    static HttpReply json(std::string body, int status = 200);
    static HttpReply text(std::string body, QByteArray contentType, int status = 200);
};

// Answers the request `responder` belongs to, in its connection's order (HttpReplyOrder): for a
// route answering before it returns. A route answering later keeps an OrderedReply instead.
void writeReply(QHttpServerResponder &responder, HttpReply reply);
// Writes the answer to the socket at once, whatever else is owed on the connection: for
// HttpReplyOrder, whose turn it is.
void writeReplyNow(QHttpServerResponder &responder, const HttpReply &reply);

} // namespace buzz::relay
