#pragma once

// Fixture of the relay_layering_rejects_upward test: a store header that includes search.
#include "relay/search/SearchIndex.h"
