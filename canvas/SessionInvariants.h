#pragma once

#include "canvas/CanvasSession.h"

#include <QStringList>

namespace buzz::canvas {

// The invariants written under CanvasSession::State that its type cannot say (those marked
// [checked]), as a check over a real session; SQLite's assert_pager_state() is the model.
// CanvasSession::enter() runs check() after every transition in debug builds, where a broken
// invariant stops the program; release builds compile it away. broken() is the same check for
// any build: test_canvas_session_model and test_session_invariants record what it finds.
class SessionInvariants
{
public:
    // Each invariant `session` breaks, in words; empty when its state and the rest agree.
    static QStringList broken(const CanvasSession &session);
    // Debug builds: asserts that `session` breaks none (Q_ASSERT); release builds: nothing.
    static void check(const CanvasSession &session);
};

} // namespace buzz::canvas
