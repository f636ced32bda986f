#pragma once

// Closures handed from one thread to another through Qt (QThreadPool::start) are ordered by Qt's
// futex-based locks, which ThreadSanitizer cannot see unless Qt itself was built with it: to TSan
// the closure written by the network thread and run, then destroyed, by a worker looks unordered
// (CONTRIBUTING.md "CI"). Our side of the hand-over says what Qt's lock does: publish() before
// handing over, adopt() first thing where it runs. Outside a TSan build both compile to nothing.

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void *address);
extern "C" void __tsan_release(void *address);
#endif

namespace buzz::relay::handoff {

inline void publish([[maybe_unused]] void *channel)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_release(channel);
#endif
}

inline void adopt([[maybe_unused]] void *channel)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(channel);
#endif
}

} // namespace buzz::relay::handoff
