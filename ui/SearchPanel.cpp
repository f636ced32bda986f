#include "ui/SearchPanel.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"
#include "canvas/ProfileCache.h"
#include "canvas/SearchClient.h"
#include "net/nostr/Nip19.h"
#include "ui/Accessibility.h"
#include "ui/MarkdownRenderer.h"
#include "ui/SearchResultDelegate.h"
#include "ui/UiFormat.h"
#include "ui/models/SearchResultModel.h"

#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QVBoxLayout>

#include <qcoro/qcorotask.h>

#include <memory>

namespace buzz::ui {

namespace {

// The source lines around the first match of any query term, a few hundred characters either
// way: rendering a whole 256 KiB canvas to plain text takes ~100 ms, a few lines well under one.
QString sourceAroundMatch(const QString &content, const QString &query)
{
    constexpr qsizetype kContext = 300;
    constexpr qsizetype kMaxLine = 2000; // one huge line: cut it rather than render it all
    qsizetype at = -1;
    for (QString term : query.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        term.remove(QLatin1Char('"'));
        const qsizetype found = term.isEmpty() ? -1 : content.indexOf(term, 0, Qt::CaseInsensitive);
        if (found >= 0 && (at < 0 || found < at))
            at = found;
    }
    if (at < 0)
        return {};
    qsizetype from = at > kContext ? content.lastIndexOf(QLatin1Char('\n'), at - kContext) + 1 : 0;
    from = qMax(from, at - kMaxLine);
    qsizetype to = content.indexOf(QLatin1Char('\n'), at + kContext);
    to = to < 0 ? content.size() : qMin(to, at + kMaxLine);
    return content.mid(from, to - from);
}

} // namespace

SearchPanel::SearchPanel(const UiServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_model(new SearchResultModel(services.profiles, this))
    , m_query(new QLineEdit(this))
    , m_results(new QListView(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("searchPanel"));
    m_query->setObjectName(QStringLiteral("searchQueryEdit"));
    m_query->setAccessibleName(tr("Search canvases and people"));
    m_query->setPlaceholderText(tr("Search canvases and people"));
    m_query->setClearButtonEnabled(true);
    m_results->setObjectName(QStringLiteral("searchResultList"));
    m_results->setAccessibleName(tr("Search results"));
    m_results->setModel(m_model);
    m_results->setItemDelegate(new SearchResultDelegate(m_results));
    m_results->setWordWrap(true);
    m_results->setAlternatingRowColors(true);
    m_status->setObjectName(QStringLiteral("searchStatusLabel"));
    m_status->setWordWrap(true);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &SearchPanel::runSearch);
    connect(m_query, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    connect(m_query, &QLineEdit::returnPressed, this, &SearchPanel::runSearch);
    connect(m_results, &QListView::activated, this, &SearchPanel::onActivated);
    connect(m_results, &QListView::clicked, this, &SearchPanel::onActivated);
    // A canvas result selected by a screen reader or an AT-SPI script opens like a click; moving
    // through the results with the keyboard does not (Enter opens).
    connect(m_results->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this](const QItemSelection &selected) {
                const QModelIndexList indexes = selected.indexes();
                if (!indexes.isEmpty() && indexes.first() != m_results->currentIndex())
                    onActivated(indexes.first());
            });
    makeSelectionCurrent(m_results);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_query);
    layout->addWidget(m_status);
    layout->addWidget(m_results, 1);
}

void SearchPanel::focusQuery()
{
    m_query->setFocus();
    m_query->selectAll();
}

void SearchPanel::search(const QString &query)
{
    m_query->setText(query);
    runSearch();
}

void SearchPanel::runSearch()
{
    m_debounce.stop();
    const QString query = m_query->text().trimmed();
    const quint64 generation = ++m_generation;
    if (query.isEmpty()) {
        m_model->setHits({});
        m_status->clear();
        return;
    }
    m_status->setText(tr("Searching…"));
    // Both searches run at once; the list is rebuilt when both answered.
    struct Pending
    {
        std::optional<client::Result<std::vector<canvas::CanvasSearchHit>>> canvases;
        std::optional<client::Result<std::vector<canvas::ProfileHit>>> people;
    };
    auto pending = std::make_shared<Pending>();
    auto finish = [this, generation, pending, query] {
        if (generation != m_generation || !pending->canvases || !pending->people)
            return;
        using Hit = SearchResultModel::Hit;
        std::vector<Hit> hits;
        QString problem;
        if (*pending->canvases) {
            if (!pending->canvases->value().empty())
                hits.push_back(Hit {Hit::Kind::Heading, tr("Canvases")});
            for (const canvas::CanvasSearchHit &found : pending->canvases->value()) {
                const QString name = m_channelName ? m_channelName(found.channel) : QString();
                const canvas::CanvasRevision &shown = found.shown();
                Hit hit;
                hit.kind = Hit::Kind::Canvas;
                hit.title = QStringLiteral("# ") + (name.isEmpty() ? found.channel.left(8) : name);
                // Quote the canvas as it reads, not its Markdown ("….1** to the design"); a match
                // that only exists in the source (a term spanning markup) keeps the source's.
                canvas::SearchSnippet snippet = canvas::SearchClient::snippet(
                    MarkdownRenderer::plainText(sourceAroundMatch(shown.content, query)), query);
                if (snippet.matchStart < 0)
                    snippet = found.snippet;
                hit.snippet = snippet.text;
                hit.matchStart = snippet.matchStart;
                hit.matchLength = snippet.matchLength;
                hit.channelId = found.channel;
                hit.eventId = shown.eventId;
                hit.pubkey = shown.author;
                hit.createdAt = shown.createdAt;
                hit.inCurrent = found.inCurrent;
                hit.matchingRevisions = found.matchingRevisions;
                hits.push_back(std::move(hit));
            }
        } else {
            problem = pending->canvases->error().shortText();
        }
        if (*pending->people) {
            if (!pending->people->value().empty())
                hits.push_back(Hit {Hit::Kind::Heading, tr("People")});
            for (const auto &person : pending->people->value()) {
                if (m_services.profiles)
                    m_services.profiles->insert(person);
                Hit hit;
                hit.kind = Hit::Kind::Person;
                // As everywhere: "You" by key, a name that could pass for the user's with its
                // npub.
                hit.title = m_services.profiles
                    ? UiFormat::personName(m_services.profiles, person.pubkey)
                    : person.label();
                hit.snippet =
                    QString::fromStdString(nostr::nip19::encodeNpub(person.pubkey.toStdString()));
                hit.pubkey = person.pubkey;
                hits.push_back(std::move(hit));
            }
        } else if (problem.isEmpty()) {
            problem = pending->people->error().shortText();
        }
        const int count = int(std::count_if(hits.begin(), hits.end(), [](const Hit &hit) {
            return hit.kind != Hit::Kind::Heading;
        }));
        m_model->setHits(std::move(hits));
        // What the results show is never newer than what an open canvas calls current: a newer
        // revision found here becomes its head (as a live event would have).
        if (*pending->canvases && m_services.canvasWatch) {
            for (const canvas::CanvasSearchHit &found : pending->canvases->value()) {
                m_services.canvasWatch->noteRevision(found.channel, found.newestMatch);
                if (found.head)
                    m_services.canvasWatch->noteRevision(found.channel, *found.head);
            }
        }
        m_status->setText(!problem.isEmpty() ? problem
                              : count == 0   ? tr("No results for “%1”.").arg(query)
                                             : QString());
        emit searchFinished(count);
    };
    QCoro::connect(m_services.search->searchCanvasGroups(query), this,
                   [pending, finish](client::Result<std::vector<canvas::CanvasSearchHit>> result) {
                       pending->canvases = std::move(result);
                       finish();
                   });
    QCoro::connect(m_services.search->searchProfiles(query), this,
                   [pending, finish](client::Result<std::vector<canvas::ProfileHit>> result) {
                       pending->people = std::move(result);
                       finish();
                   });
}

void SearchPanel::onActivated(const QModelIndex &index)
{
    const auto *hit = m_model->hitAt(index.row());
    if (hit && hit->kind == SearchResultModel::Hit::Kind::Canvas)
        emit channelRequested(hit->channelId);
}

} // namespace buzz::ui
