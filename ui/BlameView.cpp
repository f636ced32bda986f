#include "ui/BlameView.h"

#include "ui/MonospaceFont.h"
#include "ui/models/BlameModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace buzz::ui {

BlameView::BlameView(canvas::ProfileCache *profiles, QWidget *parent)
    : QWidget(parent)
    , m_model(new BlameModel(profiles, this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_retry(new QPushButton(tr("&Try again"), this))
{
    setAccessibleName(tr("Blame"));
    m_status->setObjectName(QStringLiteral("blameStatusLabel"));
    m_status->setAccessibleDescription(tr("Blame status"));
    m_status->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("blameTable"));
    m_table->setAccessibleName(tr("Who last changed each line"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setShowGrid(false);
    m_table->verticalHeader()->hide();
    // One line per row, as in the editor: a row is a line's height, not a font's whim.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().lineSpacing() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setFont(MonospaceFont::font());
    m_retry->setObjectName(QStringLiteral("blameRetryButton"));
    m_retry->setAccessibleName(tr("Try the blame again"));
    connect(m_retry, &QPushButton::clicked, this, &BlameView::retryRequested);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_retry, 0, Qt::AlignLeft);
    clear();
}

void BlameView::clear()
{
    showMessage(tr("Select a revision to see who last changed each of its lines."), false);
}

void BlameView::showLoading()
{
    m_status->setText(tr("Reading history to find who changed each line…"));
    m_retry->hide();
}

void BlameView::showMessage(const QString &message, bool offerRetry)
{
    m_model->clear();
    m_status->setText(message);
    m_table->hide();
    m_retry->setVisible(offerRetry);
}

void BlameView::showBlame(const canvas::Blame &blame, const QString &of)
{
    m_model->setBlame(blame);
    const int lines = int(blame.lines.size());
    QString text = lines == 0 ? tr("This revision is empty.")
        : lines == 1          ? tr("Who last changed the one line of %1.").arg(of)
                     : tr("Who last changed each of the %1 lines of %2.").arg(lines).arg(of);
    if (!blame.complete())
        text += QLatin1Char(' ')
            + tr("Older history could not be read: lines marked \"or earlier\" may be older.");
    m_status->setText(text);
    m_table->setVisible(lines > 0);
    m_retry->setVisible(!blame.complete());
    m_table->resizeColumnToContents(BlameModel::LineColumn);
    m_table->resizeColumnToContents(BlameModel::AuthorColumn);
    m_table->resizeColumnToContents(BlameModel::TimeColumn);
}

QString BlameView::statusText() const
{
    return m_status->text();
}

} // namespace buzz::ui
