#pragma once

#include "ui/UiServices.h"

#include <QTimer>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QListView;

namespace buzz::ui {

class SearchResultModel;

// NIP-50 search over canvases and people (display reads). Typing searches after a short pause;
// activating a canvas hit opens its channel.
class SearchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SearchPanel(const UiServices &services, QWidget *parent = nullptr);

    // How to name a channel id in the results (the channel list knows the names).
    void setChannelNamer(std::function<QString(const QString &)> namer)
    {
        m_channelName = std::move(namer);
    }
    void focusQuery();
    void search(const QString &query);
    SearchResultModel *model() const { return m_model; }

signals:
    void channelRequested(const QString &channelId);
    void searchFinished(int hits);

private:
    void runSearch();
    void onActivated(const QModelIndex &index);

    UiServices m_services;
    SearchResultModel *m_model;
    QLineEdit *m_query;
    QListView *m_results;
    QLabel *m_status;
    QTimer m_debounce;
    quint64 m_generation = 0;
    std::function<QString(const QString &)> m_channelName;
};

} // namespace buzz::ui
