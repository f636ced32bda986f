#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` rows nip11.*, nip42.*, nip98.*: the relay information document, the WebSocket
// sign-in, and the bridge's HTTP auth with every refusal in the relay's words
// (docs/buzz-protocol.md §NIP-11, §NIP-42, §NIP-98).
class AuthChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);

private:
    static QCoro::Task<void> nip11(RelayCheckContext &context);
    static QCoro::Task<void> nip42(RelayCheckContext &context);
    static QCoro::Task<void> nip98(RelayCheckContext &context);
};

} // namespace buzz::cli
