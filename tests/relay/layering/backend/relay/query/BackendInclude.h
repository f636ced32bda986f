#pragma once

// Fixture of the relay_layering_rejects_backend_include test: a query header that includes a
// backend's own header instead of the store's interfaces.
#include "relay/store/sqlite/SqliteConnection.h"
