#include "notebook/outputlist.h"

#include <atomic>

namespace lizard::notebook {

OutputList::OutputList(std::initializer_list<Output> outputs)
{
    m_items.reserve(outputs.size());
    for (const Output& o : outputs)
        push_back(o);
}

void OutputList::push_back(Output output)
{
    m_items.push_back(std::make_shared<const Output>(std::move(output)));
}

void OutputList::set(size_type i, Output output)
{
    m_items.at(i) = std::make_shared<const Output>(std::move(output));
}

Output& OutputList::detach(size_type i)
{
    Ptr& item = m_items.at(i);
    // Copies are made on this (the owner's) thread, so a count of one cannot grow meanwhile;
    // the fence orders our writes after the last reader's release of its copy.
    if (item.use_count() == 1)
        std::atomic_thread_fence(std::memory_order_acquire);
    else
        item = std::make_shared<const Output>(*item);
    return const_cast<Output&>(*item);
}

bool OutputList::operator==(const OutputList& other) const
{
    if (size() != other.size())
        return false;
    for (size_type i = 0; i < size(); ++i) {
        if (m_items[i] != other.m_items[i] && !(*m_items[i] == *other.m_items[i]))
            return false;
    }
    return true;
}

} // namespace lizard::notebook
