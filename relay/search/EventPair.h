#pragma once

#include "relay/store/EventPair.h"

namespace buzz::relay::search {

// Hits and hydration speak the store's pair (relay/store/EventPair.h).
using store::EventPair;

} // namespace buzz::relay::search
