#include "ui/DiagnosticsPanel.h"

#include "net/client/RequestLog.h"
#include "ui/ConnectionStatus.h"
#include "ui/MonospaceFont.h"
#include "ui/models/RequestLogModel.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
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
    , m_journal(new QLabel(this))
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
    // Wide enough for the whole "23:59:59.999" in this font, whatever the style's padding.
    m_table->setColumnWidth(RequestLogModel::Time,
                            m_table->fontMetrics().horizontalAdvance(QStringLiteral("88:88:88.888"))
                                + 4 * m_table->style()->pixelMetric(QStyle::PM_HeaderMargin) + 8);
    m_table->setColumnWidth(RequestLogModel::Caller, 170);
    m_table->setColumnWidth(RequestLogModel::Method, 110);
    m_table->setColumnWidth(RequestLogModel::Consistency, 64);
    m_table->setColumnWidth(RequestLogModel::HttpStatus, 48);
    m_table->setColumnWidth(RequestLogModel::Status, 80);
    m_table->setColumnWidth(RequestLogModel::Latency, 60);
    m_table->setToolTip(tr("Double-click a row to see everything about it."));
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex &index) { showDetail(index.row()); });
    m_summary->setObjectName(QStringLiteral("diagnosticsSummaryLabel"));
    m_connection->setObjectName(QStringLiteral("connectionStateLabel"));
    m_connection->setAccessibleName(tr("Relay connection"));
    m_connection->setWordWrap(true);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connection->hide();
    m_connectionAction->setObjectName(QStringLiteral("connectionActionButton"));
    m_connectionAction->setAccessibleName(tr("Connection action (Diagnostics)"));
    m_connectionAction->hide();

    auto *copy = new QPushButton(tr("Copy as JSON"), this);
    copy->setObjectName(QStringLiteral("copyLogJsonButton"));
    copy->setAccessibleName(tr("Copy request log as JSON"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(logJson()); });
    auto *save = new QPushButton(tr("Save log…"), this);
    save->setObjectName(QStringLiteral("saveLogButton"));
    save->setAccessibleName(tr("Save request log to a file"));
    save->setToolTip(tr("Writes every request and frame as JSON Lines, with the app version, "
                        "relay and identity on the first line."));
    connect(save, &QPushButton::clicked, this, &DiagnosticsPanel::askAndSaveLog);
    m_journal->setObjectName(QStringLiteral("diagnosticsJournalLabel"));
    m_journal->setWordWrap(true);
    m_journal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_journal->hide();
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
    connect(m_model, &QAbstractItemModel::dataChanged, this, &DiagnosticsPanel::updateSummary);

    auto *connectionRow = new QHBoxLayout;
    connectionRow->addWidget(m_connection, 1);
    connectionRow->addWidget(m_connectionAction);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(clear);
    bar->addWidget(copy);
    bar->addWidget(save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(connectionRow);
    layout->addLayout(bar);
    layout->addWidget(m_journal);
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
    // The status bar and the connection banner offer the same action under the same label: this
    // one's accessible name says where it is.
    m_connectionAction->setAccessibleName(
        tr("%1 (Diagnostics)", "the connection action's button in Diagnostics")
            .arg(m_status->actionLabel().isEmpty() ? tr("Connection action")
                                                   : m_status->actionLabel()));
    m_connectionAction->setVisible(m_status->action() != ConnectionStatus::Action::None);
}

QString DiagnosticsPanel::logJson() const
{
    return QString::fromUtf8(QJsonDocument(m_log->toJson()).toJson(QJsonDocument::Indented));
}

void DiagnosticsPanel::setSessionSource(std::function<client::RequestJournal::Session()> source)
{
    m_sessionSource = std::move(source);
}

bool DiagnosticsPanel::saveLog(const QString &path, QString *error) const
{
    client::RequestJournal::Session session;
    if (m_sessionSource)
        session = m_sessionSource();
    session.time = QDateTime::currentDateTimeUtc();
    return client::RequestJournal::save(path, session, m_log->entries(), error);
}

void DiagnosticsPanel::askAndSaveLog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save request log"),
        QDir::home().filePath(QStringLiteral("buzz-canvas-requests.jsonl")),
        tr("JSON Lines (*.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveLog(path, &error))
        QMessageBox::warning(
            this, tr("Save request log"),
            tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), error));
}

void DiagnosticsPanel::setJournalPath(const QString &path)
{
    m_journal->setText(tr("Also kept across restarts in %1").arg(QDir::toNativeSeparators(path)));
    m_journal->setAccessibleName(m_journal->text());
    m_journal->setVisible(!path.isEmpty());
}

void DiagnosticsPanel::showDetail(int row)
{
    const client::RequestLogEntry *entry = m_model->entryAt(row);
    if (!entry)
        return;
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("requestDetailDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Request #%1 — %2").arg(entry->sequence).arg(entry->caller));
    dialog->setAccessibleName(dialog->windowTitle());
    auto *text = new QPlainTextEdit(dialog);
    text->setObjectName(QStringLiteral("requestDetailText"));
    text->setAccessibleName(tr("Request details"));
    text->setReadOnly(true);
    text->setFont(MonospaceFont::font());
    QJsonObject fields = entry->toJson();
    fields.remove(QStringLiteral("detail"));
    QString body = client::RequestLog::formatLine(*entry) + QStringLiteral("\n\n")
        + QString::fromUtf8(QJsonDocument(fields).toJson(QJsonDocument::Indented));
    if (!entry->detail.isEmpty()) {
        // What was sent, readable: filters pretty-printed, other frames as they are.
        const QJsonDocument sent = QJsonDocument::fromJson(entry->detail.toUtf8());
        body += QStringLiteral("\n") + tr("Sent:") + QLatin1Char('\n')
            + (sent.isNull() ? entry->detail
                             : QString::fromUtf8(sent.toJson(QJsonDocument::Indented)));
    }
    text->setPlainText(body);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    buttons->button(QDialogButtonBox::Close)
        ->setObjectName(QStringLiteral("requestDetailCloseButton"));
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text, 1);
    layout->addWidget(buttons);
    dialog->resize(640, 420);
    dialog->open();
}

void DiagnosticsPanel::updateSummary()
{
    int strong = 0;
    int routed = 0;
    int writes = 0;
    int failed = 0;
    int dropped = 0;
    for (const auto &entry : m_log->entries()) {
        dropped += entry.dropped;
        const bool http = entry.method.startsWith(QLatin1String("POST "));
        strong += entry.read && entry.strong ? 1 : 0;
        routed += entry.read && !entry.strong ? 1 : 0;
        writes += http && !entry.read ? 1 : 0;
        failed += entry.status == QLatin1String("ok") || entry.status == QLatin1String("sent")
                || entry.status == QLatin1String("received")
            ? 0
            : 1;
    }
    m_summary->setText(tr("%1 entries · %2 strong reads · %3 routed reads · %4 "
                          "writes · %5 failed")
                           .arg(m_log->size())
                           .arg(strong)
                           .arg(routed)
                           .arg(writes)
                           .arg(failed)
                       + (dropped > 0
                              ? tr(" · %n events dropped (failed verification)", nullptr, dropped)
                              : QString()));
}

} // namespace buzz::ui
