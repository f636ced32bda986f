#pragma once

#include "canvas/ChannelService.h"
#include "ui/UiServices.h"

#include <QSet>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSortFilterProxyModel;

namespace buzz::ui {

class ChannelListModel;

// The channel list on the left: filter box, my channels then open ones, New and Join buttons.
class ChannelListPanel : public QWidget
{
    Q_OBJECT
public:
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
};

} // namespace buzz::ui
