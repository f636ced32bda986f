#pragma once

#include <qcoro/qcorotask.h>

namespace buzz::cli {

class CliContext;

// `channels list|create|join|leave` and `search QUERY [--profiles]`.
class ChannelCommands
{
public:
    static QCoro::Task<int> channels(CliContext &context);
    static QCoro::Task<int> search(CliContext &context);
};

} // namespace buzz::cli
