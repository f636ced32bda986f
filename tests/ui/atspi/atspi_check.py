#!/usr/bin/python3
"""Drives buzz-canvas from outside through AT-SPI only, as QA scripts and screen readers do.

Finds the app, edits the canvas, saves, reads the canvas text and the save state, selects a revision
in History, restores it and reads its blame. Then a second person (a second app, its own profile, on
the first app's embedded relay) opens the channel: the first window's presence row names them, and
forgets them when they quit. On the way it checks that no two controls of the window share an
accessible name (shown or not), so a script can address each one by name. Run by
run_atspi_check.sh (Xvfb + a private D-Bus session with the AT-SPI
bus). Every wait polls AT-SPI state against a deadline, so a loaded machine only makes it slower.

usage: atspi_check.py BUZZ_CANVAS_BINARY
"""

import os
import re
import subprocess
import sys
import tempfile
import time

import pyatspi

TIMEOUT = float(os.environ.get("BUZZ_ATSPI_TIMEOUT", "60"))
POLL = 0.05  # between two looks at the tree; never a substitute for the condition itself


class CheckFailed(Exception):
    pass


def wait_for(what, condition, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # the tree changes under us: objects go stale
            last_error = error
        time.sleep(POLL)
    raise CheckFailed("timed out after %.0f s waiting for %s%s" % (
        timeout, what, " (last error: %s)" % last_error if last_error else ""))


def states(node):
    return node.getState()


def showing(node):
    return states(node).contains(pyatspi.STATE_SHOWING)


def enabled(node):
    return states(node).contains(pyatspi.STATE_ENABLED) or states(node).contains(
        pyatspi.STATE_SENSITIVE)


# Subtrees never searched: big tables (the request log) and closed menus only cost time.
SKIP_ROLES = {pyatspi.ROLE_TABLE, pyatspi.ROLE_MENU_BAR, pyatspi.ROLE_MENU}


def find(root, predicate, visible_only=True, skip=SKIP_ROLES):
    """Depth-first search for the first node matching predicate (visible subtrees only)."""
    stack = [root]
    while stack:
        node = stack.pop()
        try:
            role = node.getRole()
            if node is not root and visible_only and not showing(node):
                continue
            if predicate(node):
                return node
            if role in skip and node is not root:
                continue
            stack.extend(node[i] for i in reversed(range(node.childCount)))
        except Exception:
            continue
    return None


def dump(node, depth=0, out=None, limit=400):
    """The visible tree (role, name, description, states), to see why a wait failed."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    try:
        out.append("%s%s %r %r%s" % ("  " * depth, node.getRoleName(), node.name,
                                      node.description, "" if showing(node) else " (hidden)"))
        if node.getRole() in SKIP_ROLES and depth > 0:
            return out
        for i in range(node.childCount):
            child = node[i]
            if child is not None and (showing(child) or depth == 0):
                dump(child, depth + 1, out, limit)
    except Exception as error:
        out.append("%s<%s>" % ("  " * depth, error))
    return out


def named(role, name):
    return lambda node: node.getRole() == role and node.name == name


def described(role, description):
    return lambda node: node.getRole() == role and node.description == description


# Roles a script addresses by name to act on them or read them.
CONTROL_ROLES = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX,
    pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_COMBO_BOX, pyatspi.ROLE_TEXT, pyatspi.ROLE_ENTRY,
    pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_LIST, pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE,
    pyatspi.ROLE_TREE_TABLE, pyatspi.ROLE_DOCUMENT_FRAME, pyatspi.ROLE_TOOL_BAR, pyatspi.ROLE_LINK,
    pyatspi.ROLE_SPIN_BUTTON, pyatspi.ROLE_SLIDER, pyatspi.ROLE_PAGE_TAB_LIST,
}


def controls(window):
    """(role name, name) of every control in the window's tree, shown or hidden."""
    found = []
    stack = [window]
    while stack:
        node = stack.pop()
        try:
            role = node.getRole()
            if node is not window and role in CONTROL_ROLES:
                found.append((node.getRoleName(), node.name))
            if role in SKIP_ROLES and node is not window:
                continue
            stack.extend(node[i] for i in range(node.childCount) if node[i] is not None)
        except Exception:
            continue
    return found


def check_unique_names(window, when):
    """Every control has a name no other control of the window has."""
    found = controls(window)
    names = {}
    for role, name in found:
        names.setdefault(name, []).append(role)
    problems = ["%r: %s" % (name, ", ".join(roles)) for name, roles in sorted(names.items())
                if not name or len(roles) > 1]
    if problems:
        raise CheckFailed("controls %s without a unique accessible name:\n  %s"
                          % (when, "\n  ".join(problems)))
    print("%d controls %s, every name unique" % (len(found), when))


def find_app(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop[i]
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def main_window(app):
    for i in range(app.childCount):
        frame = app[i]
        if frame.getRole() == pyatspi.ROLE_FRAME:
            return frame
    return None


def press(node):
    action = node.queryAction()
    action.doAction(0)


def text_of(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def toolbar_button(window, name):
    return wait_for("toolbar button %r" % name, lambda: find(
        window, lambda n: n.getRole() in (pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON,
                        pyatspi.ROLE_CHECK_BOX)
        and n.name == name and n.parent is not None
        and n.parent.getRole() == pyatspi.ROLE_TOOL_BAR))


def edit_and_save(window, text):
    edit = toolbar_button(window, "Edit")
    wait_for("Edit enabled", lambda: enabled(edit))
    press(edit)
    editor = wait_for("the Markdown editor", lambda: find(
        window, named(pyatspi.ROLE_TEXT, "Canvas Markdown editor")))
    editor.queryEditableText().setTextContents(text)
    wait_for("the editor to hold the text", lambda: text_of(editor) == text)
    save_state = wait_for("the save state label", lambda: find(
        window, described(pyatspi.ROLE_LABEL, "Save state")))
    wait_for("'Unsaved changes'", lambda: save_state.name == "Unsaved changes")
    save = toolbar_button(window, "Save")
    wait_for("Save enabled", lambda: enabled(save))
    press(save)
    wait_for("the save state 'Saved'", lambda: save_state.name == "Saved")
    # A save keeps the editor open; Edit (checked while editing) goes back to the canvas.
    press(edit)
    canvas = wait_for("the rendered canvas document", lambda: find(
        window, named(pyatspi.ROLE_DOCUMENT_FRAME, "Canvas")))
    first_line = text.splitlines()[0].lstrip("# ")
    wait_for("the canvas to show %r" % first_line, lambda: first_line in text_of(canvas))
    return canvas


def relay_url(log_path):
    with open(log_path, encoding="utf-8", errors="replace") as log:
        found = re.search(r'relay URL "(ws://[^"]+)"', log.read())
    return found.group(1) if found else None


def check_presence(binary, env, log_path, window):
    """A second person opens the channel: the presence row says so, by name, and forgets them."""
    url = wait_for("the embedded relay's URL in the app's log", lambda: relay_url(log_path))
    other_profile = tempfile.mkdtemp(prefix="buzz-atspi-other-")
    other = subprocess.Popen([binary, "--profile", other_profile, "--relay", url], env=env,
                             stderr=subprocess.DEVNULL)
    try:
        row = wait_for("the presence row", lambda: find(
            window, lambda n: n.name == "Who is here" and showing(n)))
        summary = wait_for("someone named in it", lambda: find(
            row, lambda n: n.name.startswith("Also here: ") and showing(n)))
        print("presence read through AT-SPI:", repr(summary.name))
        check_unique_names(window, "with someone else here")
    finally:
        other.terminate()  # quits as a desktop session ending does: "offline" first
        try:
            other.wait(timeout=20)
        except subprocess.TimeoutExpired:
            other.kill()
    wait_for("the presence row to forget them", lambda: find(
        window, lambda n: n.name == "Who is here" and showing(n)) is None)
    print("departure read through AT-SPI")


def run(binary):
    profile = tempfile.mkdtemp(prefix="buzz-atspi-")
    env = dict(os.environ)
    env.update({
        "QT_QPA_PLATFORM": "xcb",
        "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
        "QT_ACCESSIBILITY": "1",
        "LANGUAGE": "en",
        "LC_ALL": "C.UTF-8",
    })
    # The embedded relay's address, for the second person's app: its server logs it at start.
    env["QT_LOGGING_RULES"] = "buzz.relay.server.info=true"
    log = tempfile.NamedTemporaryFile(prefix="buzz-atspi-log-", mode="w+", delete=False)
    app_process = subprocess.Popen([binary, "--profile", profile], env=env, stderr=log)
    app = None
    try:
        app = wait_for("buzz-canvas on the AT-SPI bus", lambda: find_app(app_process.pid))
        window = wait_for("the main window", lambda: main_window(app))
        print("found %r (pid %d), window %r" % (app.name, app_process.pid, window.name))
        wait_for("the toolbar", lambda: find(window, lambda n: n.getRole() == pyatspi.ROLE_TOOL_BAR))
        check_unique_names(window, "at start")

        canvas = edit_and_save(window, "# First version\n\nwritten through AT-SPI\n")
        print("saved and read back:", repr(text_of(canvas)))
        canvas = edit_and_save(window, "# Second version\n\nchanged through AT-SPI\n")
        print("saved again and read back:", repr(text_of(canvas)))

        history = toolbar_button(window, "History")
        press(history)  # a checkable button: AT-SPI toggles it
        revisions = wait_for("the History list", lambda: find(
            window, named(pyatspi.ROLE_LIST, "Revisions, newest first")))
        wait_for("two revisions listed", lambda: revisions.childCount >= 2)
        check_unique_names(window, "with History open")
        # Select the older revision (row 1) the way a screen reader does: selection, not focus.
        try:
            revisions.queryTable().addRowSelection(1)
        except NotImplementedError:
            revisions.querySelection().selectChild(1)
        restore = wait_for("Restore enabled", lambda: find(
            window, lambda n: n.getRole() == pyatspi.ROLE_PUSH_BUTTON
            and n.name == "Restore this revision" and enabled(n)))
        press(restore)
        dialog = wait_for("the restore dialog", lambda: find(
            app, named(pyatspi.ROLE_DIALOG, "Restore this revision?")))
        confirm = wait_for("its Restore button", lambda: find(
            dialog, named(pyatspi.ROLE_PUSH_BUTTON, "Restore")))
        press(confirm)
        wait_for("the 'Restored.' alert", lambda: find(
            window, named(pyatspi.ROLE_ALERT, "Restored.")))
        wait_for("the canvas to show the first version again",
                 lambda: "First version" in text_of(canvas))
        print("restored through AT-SPI:", repr(text_of(canvas)))

        # Blame: who last changed each line of the selected revision, a table a screen reader
        # walks cell by cell (line, who, when, text).
        tabs = wait_for("the revision details", lambda: find(
            window, lambda n: n.name == "Revision details"))
        blame_tab = wait_for("the Blame tab", lambda: find(
            tabs, lambda n: n.getRole() == pyatspi.ROLE_PAGE_TAB
            and n.name.replace("&", "") == "Blame"))
        press(blame_tab)
        blame = wait_for("the blame table", lambda: find(
            window, named(pyatspi.ROLE_TABLE, "Who last changed each line")))
        cells = blame.queryTable()
        wait_for("a row per line", lambda: cells.nRows == 3)
        first = wait_for("the first line's cells", lambda: [
            cells.getAccessibleAt(0, column).name for column in range(4)])
        if first[1] != "You" or first[3] != "# First version":
            raise CheckFailed("the blame's first row reads %r" % first)
        print("blame read through AT-SPI:", first)

        check_presence(binary, env, log.name, window)
        print("AT-SPI check passed")
        return 0
    except CheckFailed:
        if app is not None:
            print("the app's accessible tree when it failed:")
            print("\n".join(dump(app)))
        raise
    finally:
        app_process.terminate()
        try:
            app_process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            app_process.kill()
        log.close()
        os.unlink(log.name)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    try:
        sys.exit(run(sys.argv[1]))
    except CheckFailed as failure:
        print("AT-SPI check FAILED:", failure)
        sys.exit(1)
