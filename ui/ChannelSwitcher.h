#pragma once

#include <QObject>
#include <QStringList>

class QSettings;
class QWidget;

namespace buzz::ui {

class ChannelListModel;

// The quick channel switcher (View → Switch Channel, Ctrl+P): a QuickPickDialog with the channels
// opened most recently first (the one before the current at the top, so Ctrl+P, Enter goes back),
// then every other listed channel. The recent channels are kept in the profile's settings
// ("channels/recent"), so they survive a restart.
class ChannelSwitcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 10;

    ChannelSwitcher(QSettings *settings, const ChannelListModel *channels, QObject *parent);

    void remember(const QString &channelId); // a channel was opened
    QStringList recent() const; // most recent first
    void open(QWidget *window, const QString &currentChannelId);

signals:
    void channelPicked(const QString &channelId);

private:
    QSettings *m_settings;
    const ChannelListModel *m_channels;
    QStringList m_recent; // without settings (tests): kept for the session only
};

} // namespace buzz::ui
