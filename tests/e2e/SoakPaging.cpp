#include "SoakPaging.h"

namespace buzz::soak {

namespace {
// True when (createdAt, id) comes before `key` in the walk (newer, or as new with a lower id).
bool sortsBefore(qint64 createdAt, const QString &id, const std::pair<qint64, QString> &key)
{
    return createdAt > key.first || (createdAt == key.first && id < key.second);
}
} // namespace

PagingMiss classifyPagingMiss(const PagingRecord &paging, qint64 createdAt, const QString &id)
{
    if (!paging.firstTop || sortsBefore(createdAt, id, *paging.firstTop))
        return PagingMiss::NewerThanFirstPage;
    if (paging.firstBottom && !sortsBefore(createdAt, id, *paging.firstBottom)
        && !(createdAt == paging.firstBottom->first && id == paging.firstBottom->second))
        return PagingMiss::BelowFirstPage;
    return PagingMiss::InFirstPage;
}

} // namespace buzz::soak
