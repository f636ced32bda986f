#pragma once

#include "canvas/ChannelService.h"
#include "ui/UiServices.h"

#include <QSet>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSortFilterProxyModel;

namespace buzz::ui {

class ChannelListModel;

// The channel list on the left: filter box, my channels then open ones, New and Join buttons.
// A list read that fails says why in words for people under the list (the relay's own words are
// in the tooltip and in Diagnostics); a transient failure (the relay busy, a gateway, a timeout)
// is read again by itself, after 2 s doubling up to 60 s, and the words go once it succeeds.
class ChannelListPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kFirstRetryMs = 2000;
    static constexpr int kMaxRetryMs = 60000;

    explicit ChannelListPanel(const UiServices &services, QWidget *parent = nullptr);

    ChannelListModel *model() const { return m_model; }
    // Reloads the list; when `createFirstNamed` is set and the relay lists no channel at all, it
    // creates that channel first (the embedded relay's first run).
    void refresh(const QString &createFirstNamed = {});
    void selectChannel(const QString &channelId);
    QString selectedChannelId() const;
    void createChannel(const canvas::CreateChannelRequest &request);
    void joinChannel(const QString &channelId);
    // Asks first (leaving a private channel loses access to it), then publishes kind 9022.
    void askLeave(const QString &channelId);
    void leaveChannel(const QString &channelId);
    void focusFilter();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void channelActivated(const buzz::canvas::ChannelInfo &channel);
    void channelUpdated(const buzz::canvas::ChannelInfo &channel); // after join, leave, live change
    void channelsLoaded(int count);
    void relayProblem(const buzz::client::RelayError &error);

private:
    void onCurrentChanged();
    void askCreate();
    void updateButtons();
    void showListProblem(const client::RelayError &error);
    void updateProblemText();

    UiServices m_services;
    ChannelListModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QListView *m_list;
    QPushButton *m_create;
    QPushButton *m_join;
    QPushButton *m_leave;
    QLabel *m_status;
    QString m_pendingSelection;
    // Channels this session created or joined (the relay said OK). A list read that started before
    // that write may still show them as not joined; it must not take the membership away.
    QSet<QString> m_joinedHere;
    bool m_busy = false;
    bool m_refreshAgain = false; // a live change arrived while a list read was on its way
    QString m_problem; // why the last list read failed, for people
    QTimer m_retry; // the next read after a transient failure
    QTimer m_countdown; // keeps "Trying again in N s" true
    int m_retryDelayMs = kFirstRetryMs;
};

} // namespace buzz::ui
