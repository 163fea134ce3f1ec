#pragma once
// A cell's outputs, each held by a shared pointer: copying the list (a snapshot of the notebook
// for autosave) costs a pointer per output, however large the outputs are (images, tables).
// Reading looks like a std::vector<Output>; changing an output that a copy still shares clones
// that one output first, so a copy never changes under the thread that reads it.

#include "notebook/output.h"

#include <initializer_list>
#include <memory>
#include <vector>

namespace lizard::notebook {

class OutputList
{
    using Ptr = std::shared_ptr<const Output>;

public:
    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Output;
        using difference_type = std::ptrdiff_t;
        using pointer = const Output*;
        using reference = const Output&;

        const_iterator() = default;
        explicit const_iterator(std::vector<Ptr>::const_iterator it) : m_it(it) {}
        reference operator*() const { return **m_it; }
        pointer operator->() const { return m_it->get(); }
        const_iterator& operator++()
        {
            ++m_it;
            return *this;
        }
        const_iterator operator++(int) { return const_iterator(m_it++); }
        difference_type operator-(const const_iterator& o) const { return m_it - o.m_it; }
        bool operator==(const const_iterator& o) const = default;

    private:
        std::vector<Ptr>::const_iterator m_it;
    };
    using value_type = Output;
    using size_type = std::size_t;

    OutputList() = default;
    OutputList(std::initializer_list<Output> outputs);

    size_type size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    const Output& operator[](size_type i) const { return *m_items[i]; }
    const Output& at(size_type i) const { return *m_items.at(i); }
    const Output& front() const { return *m_items.front(); }
    const Output& back() const { return *m_items.back(); }
    const_iterator begin() const { return const_iterator(m_items.begin()); }
    const_iterator end() const { return const_iterator(m_items.end()); }

    void push_back(Output output);
    void clear() { m_items.clear(); }
    void reserve(size_type n) { m_items.reserve(n); }
    void set(size_type i, Output output);
    // The output to change in place: a private clone when a copy of the list shares it.
    Output& detach(size_type i);

    bool operator==(const OutputList& other) const;

private:
    std::vector<Ptr> m_items;
};

} // namespace lizard::notebook
