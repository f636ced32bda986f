#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/CanvasSession.h"
#include "ui/UiServices.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QListView;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace buzz::canvas {
class BlameService;
}

namespace buzz::ui {

class BlameView;
class DiffView;
class HistoryModel;
class NoticeBanner;

// The History dock: revisions newest first with author, time, a "Current" badge and the label of
// a restore or merge; "Load older" pages with the relay's keyset cursor; for the selected
// revision its own change (against the revision it replaced, or with a toggle against the
// current canvas) and its blame; "Restore this revision" behind a confirmation that freezes the
// head (docs/buzz-protocol.md §Restore, §Upstream desktop behaviour).
// It displays the open canvas's session: the current head, the restore in flight and its outcome
// (with Retry when it is unknown) are the session's; the panel keeps only the listed pages.
class HistoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPanel(const UiServices &services, QWidget *parent = nullptr);

    // A new channel's session (or none): resets the list, selection and notices.
    void setSession(canvas::CanvasSession *session, bool canRestore);
    void setCanRestore(bool canRestore);
    // Re-reads the first page (after a save, a restore, a live change or F5).
    void reload();
    void loadOlder();
    // Revisions per page (default: the data layer's 100). Tests page with small sizes.
    void setPageSize(int pageSize) { m_pageSize = pageSize; }

    HistoryModel *model() const { return m_model; }
    BlameView *blameView() const { return m_blame; }
    canvas::BlameService *blameService() const { return m_blameService; }
    bool isRestoring() const;

signals:
    void historyLoaded(int rows);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void divideSplitOnce();
    void onSelectionChanged();
    void showSelectedDiff();
    void readParent(const QString &parentId); // a tagged parent no loaded page lists
    void showSelectedBlame();
    void askRestore();
    void onSessionState();
    void onSettled(const canvas::CanvasSession::Settled &settled);
    void onHeadChanged();
    void onFirstPage(const client::Result<canvas::HistoryPage> &page, bool hadRows,
                     const QString &selectedId);
    void updateButtons();
    const canvas::CanvasRevision *selectedRevision() const;

    UiServices m_services;
    HistoryModel *m_model;
    QLabel *m_status;
    QListView *m_list;
    QPushButton *m_loadOlder;
    DiffView *m_diff;
    QCheckBox *m_compareCurrent;
    BlameView *m_blame;
    QTabWidget *m_details;
    canvas::BlameService *m_blameService;
    quint64 m_blameRequest = 0; // the answer for an older selection is dropped
    QString m_blamedId; // the revision the blame view shows (or is reading)
    QString m_readingParentId; // the parent being read by id
    QPushButton *m_restore;
    NoticeBanner *m_notice;
    QSplitter *m_splitter = nullptr;
    bool m_splitSized = false; // the first show divides the height: diff 3/5, list 2/5

    // History reads are bound to the session: answers for a closed channel are dropped with it.
    QPointer<canvas::CanvasSession> m_session;
    bool m_canRestore = false;
    int m_pageSize = 100;
    bool m_stale = true; // needs a reload when next shown
    bool m_loading = false;
    bool m_reselecting = false; // a reload selects the same revision again
    QString m_listedHeadId; // the head when the list was last asked for
};

} // namespace buzz::ui
