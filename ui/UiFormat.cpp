#include "ui/UiFormat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

namespace buzz::ui {

QString UiFormat::withShortcut(const QString &text, const QKeySequence &keys)
{
    if (keys.isEmpty())
        return text;
    return QCoreApplication::translate("buzz::ui::UiFormat", "%1 (%2)")
        .arg(text, keys.toString(QKeySequence::NativeText));
}

QString UiFormat::revisionTime(qint64 unixSeconds)
{
    const QDateTime local = QDateTime::fromSecsSinceEpoch(unixSeconds).toLocalTime();
    return QLocale().toString(local, QStringLiteral("d MMM yyyy, HH:mm"));
}

QString UiFormat::relativeTime(qint64 unixSeconds, qint64 nowSeconds)
{
    const qint64 age = nowSeconds - unixSeconds;
    if (age < 45)
        return QStringLiteral("just now");
    if (age < 3600)
        return QStringLiteral("%1 min ago").arg(qMax<qint64>(1, age / 60));
    if (age < 12 * 3600)
        return QStringLiteral("%1 h ago").arg(age / 3600);
    return revisionTime(unixSeconds);
}

QString UiFormat::sizeSummary(const QString &text)
{
    const qsizetype lines = text.isEmpty() ? 0 : text.count(QLatin1Char('\n')) + 1;
    const qsizetype bytes = text.toUtf8().size();
    const QString size = bytes < 1024
        ? QStringLiteral("%1 B").arg(bytes)
        : QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
    return QStringLiteral("%1 lines · %2").arg(lines).arg(size);
}

} // namespace buzz::ui
