#pragma once

#include <QDialog>

#include <optional>

namespace buzz::ui {

// "Restore this revision?" — names the author and time of the revision and freezes the head id at
// the moment it opens: the restore asserts that head, so a concurrent edit made while the user
// reads the question turns the restore into a conflict instead of silently overwriting it.
class RestoreDialog : public QDialog
{
    Q_OBJECT
public:
    RestoreDialog(const QString &author, const QString &time, std::optional<QString> frozenHeadId,
                  QWidget *parent = nullptr);

    std::optional<QString> frozenHeadId() const { return m_frozenHeadId; }
    QString bodyText() const { return m_body; }

private:
    std::optional<QString> m_frozenHeadId;
    QString m_body;
};

} // namespace buzz::ui
