#pragma once

#include <string>
#include <utility>
#include <variant>

namespace buzz {

// A value or an error, like C++23 std::expected (not available with g++ 12 in C++20 mode).
// Errors travel as values across layers; nothing here throws.
template<class E>
class Unexpected
{
public:
    explicit Unexpected(E error)
        : m_error(std::move(error))
    { }
    E &error() & { return m_error; }
    E &&error() && { return std::move(m_error); }

private:
    E m_error;
};

template<class E>
Unexpected(E) -> Unexpected<E>;

template<class T, class E = std::string>
class Expected
{
public:
    Expected(T value)
        : m_storage(std::in_place_index<0>, std::move(value))
    { }
    template<class G>
    Expected(Unexpected<G> error)
        : m_storage(std::in_place_index<1>, E(std::move(error).error()))
    { }

    bool hasValue() const { return m_storage.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T &value() & { return std::get<0>(m_storage); }
    const T &value() const & { return std::get<0>(m_storage); }
    T &&value() && { return std::get<0>(std::move(m_storage)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const E &error() const & { return std::get<1>(m_storage); }
    E &&error() && { return std::get<1>(std::move(m_storage)); }

private:
    std::variant<T, E> m_storage;
};

// Expected<void, E>: success carries nothing.
template<class E>
class Expected<void, E>
{
public:
    Expected() = default;
    template<class G>
    Expected(Unexpected<G> error)
        : m_failed(true)
        , m_error(std::move(error).error())
    { }
    bool hasValue() const { return !m_failed; }
    explicit operator bool() const { return hasValue(); }
    const E &error() const & { return m_error; }

private:
    bool m_failed = false;
    E m_error {};
};

} // namespace buzz
