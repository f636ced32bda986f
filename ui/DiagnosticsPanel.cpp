#include "ui/DiagnosticsPanel.h"

#include "net/client/RequestLog.h"
#include "ui/ConnectionStatus.h"
#include "ui/models/RequestLogModel.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace buzz::ui {

DiagnosticsPanel::DiagnosticsPanel(client::RequestLog *log, QWidget *parent)
    : QWidget(parent)
    , m_log(log)
    , m_model(new RequestLogModel(log, this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_connection(new QLabel(this))
    , m_connectionAction(new QPushButton(this))
{
    setObjectName(QStringLiteral("diagnosticsPanel"));
    m_table->setObjectName(QStringLiteral("requestLogTable"));
    m_table->setAccessibleName(tr("Relay requests"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(RequestLogModel::Sequence, 44);
    m_table->setColumnWidth(RequestLogModel::Time, 96);
    m_table->setColumnWidth(RequestLogModel::Caller, 170);
    m_table->setColumnWidth(RequestLogModel::Method, 110);
    m_table->setColumnWidth(RequestLogModel::Consistency, 64);
    m_table->setColumnWidth(RequestLogModel::HttpStatus, 48);
    m_table->setColumnWidth(RequestLogModel::Status, 80);
    m_table->setColumnWidth(RequestLogModel::Latency, 60);
    m_summary->setObjectName(QStringLiteral("diagnosticsSummaryLabel"));
    m_connection->setObjectName(QStringLiteral("connectionStateLabel"));
    m_connection->setAccessibleName(tr("Relay connection"));
    m_connection->setWordWrap(true);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connection->hide();
    m_connectionAction->setObjectName(QStringLiteral("connectionActionButton"));
    m_connectionAction->hide();

    auto *copy = new QPushButton(tr("Copy as JSON"), this);
    copy->setObjectName(QStringLiteral("copyLogJsonButton"));
    copy->setAccessibleName(tr("Copy request log as JSON"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(logJson()); });
    auto *clear = new QPushButton(tr("Clear"), this);
    clear->setObjectName(QStringLiteral("clearLogButton"));
    clear->setAccessibleName(tr("Clear request log"));
    connect(clear, &QPushButton::clicked, m_log, &client::RequestLog::clear);

    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        updateSummary();
        if (m_table->isVisible())
            m_table->scrollToBottom();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &DiagnosticsPanel::updateSummary);

    auto *connectionRow = new QHBoxLayout;
    connectionRow->addWidget(m_connection, 1);
    connectionRow->addWidget(m_connectionAction);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(clear);
    bar->addWidget(copy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(connectionRow);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    updateSummary();
}

void DiagnosticsPanel::setConnectionStatus(ConnectionStatus *status)
{
    m_status = status;
    connect(m_status, &ConnectionStatus::changed, this, &DiagnosticsPanel::updateConnection);
    connect(m_connectionAction, &QPushButton::clicked, m_status, &ConnectionStatus::act);
    m_connection->show();
    updateConnection();
}

void DiagnosticsPanel::updateConnection()
{
    QString text = tr("Relay: %1").arg(m_status->stateText());
    const QString live = m_status->liveText();
    if (!live.isEmpty())
        text += QStringLiteral(" · ") + live;
    const QString detail = m_status->detailText();
    if (!detail.isEmpty())
        text += QLatin1Char('\n') + detail;
    m_connection->setText(text);
    m_connectionAction->setText(m_status->actionLabel());
    m_connectionAction->setAccessibleName(m_status->actionLabel());
    m_connectionAction->setVisible(m_status->action() != ConnectionStatus::Action::None);
}

QString DiagnosticsPanel::logJson() const
{
    return QString::fromUtf8(QJsonDocument(m_log->toJson()).toJson(QJsonDocument::Indented));
}

void DiagnosticsPanel::updateSummary()
{
    int strong = 0;
    int failed = 0;
    for (const auto &entry : m_log->entries()) {
        strong += entry.strong ? 1 : 0;
        failed += entry.status == QLatin1String("ok") ? 0 : 1;
    }
    m_summary->setText(tr("%1 requests · %2 strong · %3 routed · %4 failed")
                           .arg(m_log->size())
                           .arg(strong)
                           .arg(int(m_log->size()) - strong)
                           .arg(failed));
}

} // namespace buzz::ui
