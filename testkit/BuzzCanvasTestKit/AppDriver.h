#pragma once

#include <BuzzCanvasTestKit/buzzcanvastestkit_export.h>

#include <QString>

#include <memory>

class QMainWindow;
class QWidget;

namespace BuzzCanvasTestKit {

// Drives the real Buzz Canvas window in-process, for Qt Test GUI automation from outside the
// project (find_package(BuzzCanvasTestKit), target BuzzCanvasTestKit::Driver). The driver starts
// the app's UI with a throwaway profile (its own identity) against an in-memory relay of its own,
// or against any relay URL (a staging relay, or another driver's relayUrl() so that two
// identities share one relay). Every step finds widgets by the object names ui/README.md
// documents, acts as a user would (clicks, keystrokes) and waits for the app's answer with a
// timeout; a step that fails returns false and errorString() says what it waited for. Needs a
// QApplication (QTEST_MAIN in a test that links Qt6::Widgets) and, headless, QT_QPA_PLATFORM=
// offscreen.
class BUZZCANVASTESTKIT_EXPORT AppDriver
{
public:
    struct Options
    {
        // Empty: the driver starts an in-memory relay on 127.0.0.1 (the app's embedded relay).
        QString relayUrl;
        // Empty: a temporary profile directory, removed with the driver.
        QString profileDir;
        // How long each step waits for the app.
        int timeoutMs = 20000;
    };

    // What to do with a conflict: save the three-way merge (it must be clean), keep your text on
    // top of theirs, or take theirs (your text stays in Undo).
    enum class Resolution { Merge, KeepMine, TakeTheirs };

    AppDriver();
    explicit AppDriver(Options options);
    ~AppDriver();
    AppDriver(const AppDriver &) = delete;
    AppDriver &operator=(const AppDriver &) = delete;

    // Starts the relay (unless a URL was given) and the app, and waits until it is connected.
    bool start();
    QString errorString() const;
    QString relayUrl() const; // what the app talks to: hand it to a second driver
    QString profileDir() const;
    QMainWindow *window() const;
    // A widget of this window (or of one of its dialogs) by its documented objectName, or null.
    QWidget *widget(const QString &objectName) const;

    // Channels: create one (New… in the channel list) and wait until its canvas is open; open a
    // listed channel by name (reloads the list first); join the open channel (its Join notice).
    bool createChannel(const QString &name);
    bool openChannel(const QString &name);
    bool joinChannel();

    // Editing: Edit, keystrokes at the end of the editor, all of the editor's text replaced
    // (one paste), Save and wait until it is saved, leave editing.
    bool startEditing();
    bool typeText(const QString &text);
    bool replaceText(const QString &text);
    bool save();
    bool stopEditing();
    QString saveState() const; // saveStateLabel as shown ("Saved", "Unsaved changes", …)
    QString canvasText() const; // the current revision's Markdown ("" when there is none)
    QString editorText() const;
    bool waitForCanvasText(const QString &text);

    // History: show it, count the revisions listed (newest first), select one, restore it
    // (confirmed in the dialog) and wait until the restore is done.
    bool openHistory();
    int revisionCount() const;
    bool waitForRevisionCount(int atLeast);
    bool selectRevision(int row);
    bool restoreSelectedRevision();

    // Conflicts: Save when someone else saved first, and wait for the conflict dialog; then
    // resolve it and wait until what the resolution saves is saved.
    bool saveExpectingConflict();
    QString conflictResultText() const; // the merged document the dialog shows
    bool resolveConflict(Resolution resolution);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace BuzzCanvasTestKit
