#include "ui/DiagnosticsPanel.h"

#include "net/client/RequestLog.h"
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

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(clear);
    bar->addWidget(copy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    updateSummary();
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
