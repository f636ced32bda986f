#include "ui/models/SearchResultModel.h"

#include "canvas/ProfileCache.h"
#include "ui/RelativeTimeTicker.h"
#include "ui/UiFormat.h"

#include <QFont>

namespace buzz::ui {

SearchResultModel::SearchResultModel(canvas::ProfileCache *profiles, QObject *parent)
    : QAbstractListModel(parent)
    , m_profiles(profiles)
{
    if (m_profiles)
        connect(m_profiles, &canvas::ProfileCache::profilesUpdated, this,
                &SearchResultModel::refreshCanvasRows);
    connect(RelativeTimeTicker::instance(), &RelativeTimeTicker::tick, this,
            &SearchResultModel::refreshCanvasRows);
}

void SearchResultModel::refreshCanvasRows()
{
    if (!m_hits.empty())
        emit dataChanged(index(0), index(int(m_hits.size()) - 1),
                         {MetaRole, Qt::DisplayRole, Qt::AccessibleTextRole, Qt::ToolTipRole});
}

void SearchResultModel::setHits(std::vector<Hit> hits)
{
    beginResetModel();
    m_hits = std::move(hits);
    endResetModel();
    if (m_profiles) {
        QStringList authors;
        for (const Hit &hit : m_hits) {
            if (hit.kind == Hit::Kind::Canvas)
                authors << hit.pubkey;
        }
        m_profiles->request(authors);
    }
}

const SearchResultModel::Hit *SearchResultModel::hitAt(int row) const
{
    if (row < 0 || row >= int(m_hits.size()))
        return nullptr;
    return &m_hits[std::size_t(row)];
}

int SearchResultModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_hits.size());
}

Qt::ItemFlags SearchResultModel::flags(const QModelIndex &index) const
{
    const Hit *hit = hitAt(index.row());
    if (hit && hit->kind == Hit::Kind::Heading)
        return Qt::ItemIsEnabled;
    return QAbstractListModel::flags(index);
}

QString SearchResultModel::meta(const Hit &hit) const
{
    QString text = tr("%1 · %2").arg(UiFormat::personName(m_profiles, hit.pubkey),
                                     UiFormat::relativeTime(hit.createdAt));
    if (!hit.inCurrent)
        text += QStringLiteral(" · ") + tr("only in an older revision");
    return text;
}

QVariant SearchResultModel::data(const QModelIndex &index, int role) const
{
    const Hit *hit = hitAt(index.row());
    if (!hit)
        return {};
    const bool canvas = hit->kind == Hit::Kind::Canvas;
    switch (role) {
    case Qt::DisplayRole:
        if (hit->kind == Hit::Kind::Heading)
            return hit->title;
        if (canvas)
            return QString(hit->title + QLatin1Char('\n') + meta(*hit) + QLatin1Char('\n')
                           + hit->snippet);
        return hit->snippet.isEmpty() ? hit->title
                                      : hit->title + QStringLiteral("\n") + hit->snippet;
    case Qt::AccessibleTextRole:
        return canvas ? tr("%1, %2: %3").arg(hit->title, meta(*hit), hit->snippet) : hit->title;
    case Qt::ToolTipRole:
        if (hit->kind == Hit::Kind::Person)
            return hit->pubkey;
        if (canvas) {
            QString tip = tr("%1\n%2").arg(UiFormat::revisionTime(hit->createdAt),
                                           UiFormat::personToolTip(m_profiles, hit->pubkey));
            if (hit->matchingRevisions > 1)
                tip += QLatin1Char('\n')
                    + tr("%n matching revisions", nullptr, hit->matchingRevisions);
            return tip;
        }
        return {};
    case Qt::FontRole:
        if (hit->kind == Hit::Kind::Heading) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case KindRole:
        return int(hit->kind);
    case ChannelIdRole:
        return hit->channelId;
    case EventIdRole:
        return hit->eventId;
    case PubkeyRole:
        return hit->pubkey;
    case SnippetRole:
        return hit->snippet;
    case MatchStartRole:
        return qlonglong(hit->matchStart);
    case MatchLengthRole:
        return qlonglong(hit->matchLength);
    case MetaRole:
        return canvas ? meta(*hit) : QString();
    case InCurrentRole:
        return hit->inCurrent;
    default:
        return {};
    }
}

} // namespace buzz::ui
