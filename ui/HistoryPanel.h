#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/SaveOutcome.h"
#include "ui/UiServices.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListView;
class QPushButton;

namespace buzz::ui {

class DiffView;
class HistoryModel;
class NoticeBanner;

// The History dock: revisions newest first with author, time and a "Current" badge; "Load older"
// pages with the relay's keyset cursor; the selected revision's diff against the current canvas;
// "Restore this revision" behind a confirmation that freezes the head (postsnapshot §4.2, §2.2).
class HistoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPanel(const UiServices &services, QWidget *parent = nullptr);

    // Switching channel resets everything (selection, notices, pending restore display).
    void setChannel(const QString &channel, bool canRestore);
    void setCanRestore(bool canRestore);
    // The canvas the diff compares against and whose id gets the "Current" badge.
    void setCurrent(const std::optional<canvas::CanvasRevision> &head);
    // Re-reads the first page (after a save, a restore or a live change).
    void reload();
    void loadOlder();
    // Revisions per page (default: the data layer's 100). Tests page with small sizes.
    void setPageSize(int pageSize) { m_pageSize = pageSize; }

    HistoryModel *model() const { return m_model; }
    bool isRestoring() const { return m_restoring; }

signals:
    // A restore finished (whatever the outcome): the canvas view should show `outcome.saved` or
    // refresh. The panel already re-read its own list.
    void restoreSettled(const buzz::canvas::SaveOutcome &outcome);
    void historyLoaded(int rows);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onSelectionChanged();
    void showSelectedDiff();
    void askRestore();
    void runRestore(const canvas::CanvasRevision &target, std::optional<QString> frozenHeadId);
    void onRestoreFinished(const canvas::SaveOutcome &outcome);
    void updateButtons();
    const canvas::CanvasRevision *selectedRevision() const;

    UiServices m_services;
    HistoryModel *m_model;
    QLabel *m_status;
    QListView *m_list;
    QPushButton *m_loadOlder;
    DiffView *m_diff;
    QPushButton *m_restore;
    NoticeBanner *m_notice;

    QString m_channel;
    bool m_canRestore = false;
    std::optional<canvas::CanvasRevision> m_current;
    int m_pageSize = 100;
    bool m_stale = true; // needs a reload when next shown
    bool m_loading = false;
    bool m_restoring = false;
    quint64 m_generation =
        0; // bumps on channel switch: late answers for another channel are dropped
};

} // namespace buzz::ui
