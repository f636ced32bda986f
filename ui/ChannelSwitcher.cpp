#include "ui/ChannelSwitcher.h"

#include "ui/QuickPickDialog.h"
#include "ui/models/ChannelListModel.h"

#include <QSettings>

namespace buzz::ui {

namespace {
constexpr char kRecentKey[] = "channels/recent";
} // namespace

ChannelSwitcher::ChannelSwitcher(QSettings *settings, const ChannelListModel *channels,
                                 QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_channels(channels)
{
    if (m_settings)
        m_recent = m_settings->value(QLatin1String(kRecentKey)).toStringList();
}

void ChannelSwitcher::remember(const QString &channelId)
{
    if (channelId.isEmpty())
        return;
    m_recent.removeAll(channelId);
    m_recent.prepend(channelId);
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    if (m_settings)
        m_settings->setValue(QLatin1String(kRecentKey), m_recent);
}

QStringList ChannelSwitcher::recent() const
{
    return m_recent;
}

void ChannelSwitcher::open(QWidget *window, const QString &currentChannelId)
{
    auto *dialog =
        new QuickPickDialog(QStringLiteral("channelSwitcher"), tr("Switch Channel"), window);
    dialog->setFilterLabel(tr("Filter channels"), tr("Type a channel name…"));
    dialog->setListName(tr("Channels"));
    QList<QuickPickDialog::Item> items;
    const auto add = [&items](const canvas::ChannelInfo &channel, bool recent) {
        QString text = QStringLiteral("# ") + channel.name;
        if (!channel.isMember)
            text = tr("%1 (not joined)").arg(text);
        items.append({text, channel.id, recent ? tr("Opened recently") : QString()});
    };
    QStringList listed;
    for (const QString &id : m_recent) {
        const auto channel = m_channels->channel(id);
        if (id != currentChannelId && channel) {
            add(*channel, true);
            listed << id;
        }
    }
    for (const canvas::ChannelInfo &channel : m_channels->channels()) {
        if (channel.id != currentChannelId && !listed.contains(channel.id))
            add(channel, false);
    }
    dialog->setItems(items, tr("No other channel is listed yet."));
    connect(dialog, &QuickPickDialog::picked, this, &ChannelSwitcher::channelPicked);
    dialog->open();
}

} // namespace buzz::ui
