#pragma once

// libpq is loaded when the relay first connects to PostgreSQL, not when the program starts.
//
// Linked normally, libpq.so.5 brings libssl, libgnutls (through libldap), p11-kit, nettle, gmp and
// more into every process that links the relay, and gnutls initialises itself at load time: the
// desktop app, whose embedded relay only ever runs on SQLite, paid about 3 MB of resident memory
// and its start-up time for them (app_bench peak RSS 79.6 → 83.5 MB when PostgreSQL support was
// merged). So the relay does not link libpq: LibPq.cpp defines the libpq functions PgConnection
// calls, each forwarding to the real one resolved from libpq.so.5 on first use.

#include <string>

namespace buzz::relay::store {

class LibPq
{
public:
    // Loads libpq.so.5 once (thread-safe). False with `error` set ("the PostgreSQL client library
    // (libpq.so.5) could not be loaded: <dlerror>") when the library or one of its functions is
    // missing; every later call gives the same answer. PgConnection::open asks first, so no libpq
    // function is ever called on a library that did not load.
    static bool load(std::string &error);
    static bool isLoaded();
};

} // namespace buzz::relay::store
