#pragma once

#include <QFile>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// Reads the public test vectors copied into tests/data.
namespace buzz::nostr::testdata {

inline QByteArray readFile(const char *name)
{
    QFile file(QStringLiteral(BUZZ_TEST_DATA_DIR "/") + QString::fromLatin1(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", name);
    return file.readAll();
}

inline std::vector<nlohmann::json> readJsonLines(const char *name)
{
    std::vector<nlohmann::json> rows;
    for (const QByteArray &line : readFile(name).split('\n')) {
        if (!line.trimmed().isEmpty())
            rows.push_back(nlohmann::json::parse(line.toStdString()));
    }
    return rows;
}

} // namespace buzz::nostr::testdata
