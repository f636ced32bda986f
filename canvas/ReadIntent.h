#pragma once

namespace buzz::canvas {

// Which kind of read the caller needs (docs/architecture.md §Read intent). Chosen by the caller,
// never guessed.
enum class ReadIntent {
    Display, // filter without "consistency": may be served by a lagging replica (opening a canvas,
             // history pages, channel lists, search, profiles)
    Strong, // "consistency":"strong": served by the writer (anything that gates a write)
};

} // namespace buzz::canvas
