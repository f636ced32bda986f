#pragma once

// Fixture of the relay_layering_rejects_backend_branch test: a query header that asks which
// backend a lease is on instead of reading through store::ReadConnection.
inline bool onPostgres(const Lease &lease)
{
    return lease.postgres() != nullptr;
}
