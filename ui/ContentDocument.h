#pragma once

#include <QTextDocument>

namespace buzz::ui {

// The document of anything that renders text others wrote (the canvas, the editor's preview).
// Qt's QTextDocument loads what its text names: `![z](file:///dev/zero)`, `![](/etc/x.png)`, a
// relative `x.png` (against the working directory), `<img src>` and `<link href>` in inline HTML
// are all read from the local disk, and one endless file made every member's app allocate until
// it aborted. Here nothing is ever loaded: every image is a small placeholder, every other
// resource is empty, and nothing is fetched from the network either (a remote image would tell a
// stranger who read the canvas and when).
class ContentDocument : public QTextDocument
{
    Q_OBJECT
public:
    explicit ContentDocument(QObject *parent = nullptr);

    // What any resource a canvas names resolves to. Never a null QVariant nor a null image: on
    // either, Qt falls back to reading the name as a local file itself.
    static QVariant refusedResource(int type);
    // The same refusal for every QTextDocument of the process that has no resource provider of
    // its own (labels whose text is rich text, tooltips): set once, idempotent.
    static void refuseResourcesEverywhere();

protected:
    QVariant loadResource(int type, const QUrl &name) override;
};

} // namespace buzz::ui
