#pragma once

#include "canvas/Merge3.h"

#include <QDialog>

#include <functional>
#include <vector>

class QButtonGroup;
class QGroupBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace buzz::ui {

class NoticeBanner;

// Three-way merge of an edit with the revision that beat it
// (docs/architecture.md §Conflicts and merge): a clean merge is shown ready to save, each change
// in it marked as yours, theirs or both; conflicting hunks are resolved side by side, the common
// base beside mine and theirs (mine / theirs / both), and the result opens at the first. Two
// shortcuts skip the merge: "Keep mine on top of theirs" and "Take theirs". The dialog never
// touches the editor: the caller applies resultText() only when the dialog is accepted, so Cancel
// leaves the editor exactly as it was.
class ConflictDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Resolution { None, Merged, KeepMine, TakeTheirs };

    struct Input
    {
        QString baseText; // the revision the edit started from ("" when there was none)
        QString mineText; // the editor's text
        QString theirsText; // the head now
        QString theirsAuthor; // display name
        QString theirsToolTip; // their name and npub
        QString theirsTime; // formatted
        QString acceptLabel; // "Save merge" (after a failed save) or "Use merge" (while editing)
    };

    explicit ConflictDialog(Input input, QWidget *parent = nullptr);

    Resolution resolution() const { return m_resolution; }
    QString resultText() const;
    int conflictCount() const { return int(m_conflicts.size()); }
    int unresolvedCount() const;
    const canvas::MergeResult &merge() const { return m_merge; }
    // The user typed in the result: that text is a resolution of its own (it enables the accept
    // button once no conflict marker is left) and no choice replaces it without asking.
    bool isResultEditedByHand() const { return m_resultEdited; }
    // Their profile name arrived after the dialog opened (ProfileCache fetches on first sight).
    void setTheirsAuthor(const QString &name, const QString &toolTip);
    // The first line of conflict `index` in the result as it stands (0-based), -1 when unknown
    // (the result was edited by hand).
    int resultLineOfConflict(int index) const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateSummary(); // the headline: who saved, when, what is left to do
    void listCleanChanges(); // a clean merge: whose each change is, listed and tinted
    void scrollResultToLine(int line);
    void showConflict(int index);
    void choose(canvas::MergeResult::Choice choice);
    void rebuildResult();
    void finish(Resolution resolution);
    void updateAcceptState();
    // Runs `replace` at once, or after the user confirms that it may replace their hand edit.
    void replaceResult(std::function<void()> replace);

    Input m_input;
    canvas::MergeResult m_merge;
    std::vector<int> m_conflicts; // hunk index of each conflicting hunk
    std::vector<int> m_choices; // per conflict: -1 unresolved, else a MergeResult::Choice
    int m_current = -1;
    Resolution m_resolution = Resolution::None;
    bool m_resultEdited = false;

    QLabel *m_summary;
    QGroupBox *m_theirsBox = nullptr; // "Theirs — <name>"
    QListWidget *m_hunkList;
    QListWidget *m_changeList; // a clean merge's changes and whose they are
    QPlainTextEdit *m_baseHunk;
    QPlainTextEdit *m_mineHunk;
    QPlainTextEdit *m_theirsHunk;
    QButtonGroup *m_choiceGroup;
    QPlainTextEdit *m_result;
    QLabel *m_progress;
    QPushButton *m_accept;
    NoticeBanner *m_overwriteConfirm;
    std::function<void()> m_pendingReplace;
};

} // namespace buzz::ui
