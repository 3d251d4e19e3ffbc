#include "address_map.h"

#include <algorithm>
#include <filesystem>

namespace mt::sym {

void AddressMap::add(const mt::reader::Module &m) {
    modules_.push_back(m);
    dirty_ = true;
}

void AddressMap::rebuild() const {
    by_load_.resize(modules_.size());
    for (size_t i = 0; i < modules_.size(); ++i) by_load_[i] = static_cast<int>(i);
    std::stable_sort(by_load_.begin(), by_load_.end(),
                     [&](int a, int b) { return modules_[a].load_address < modules_[b].load_address; });
    max_end_.resize(by_load_.size());
    uint64_t hi = 0;
    for (size_t i = 0; i < by_load_.size(); ++i) {
        const auto &m = modules_[by_load_[i]];
        hi = std::max(hi, m.load_address + m.size);
        max_end_[i] = hi;
    }
    // Sorted by load address, a module overlaps another exactly when one before it reaches past
    // its start or the next one starts before its end. Ends saturate: a size running past the
    // top of the address space (a damaged table) reaches to the top, as contains() sees it.
    alone_.assign(modules_.size(), 0);
    uint64_t reach = 0;  // the furthest end of the modules before k
    for (size_t k = 0; k < by_load_.size(); ++k) {
        const auto &m = modules_[by_load_[k]];
        const uint64_t end = m.load_address + m.size < m.load_address ? UINT64_MAX : m.load_address + m.size;
        const bool before = k > 0 && reach > m.load_address;
        const bool after = k + 1 < by_load_.size() && modules_[by_load_[k + 1]].load_address - m.load_address < m.size;
        alone_[by_load_[k]] = !before && !after;
        reach = std::max(reach, end);
    }
    dirty_ = false;
}

bool AddressMap::alone(int i) const {
    if (dirty_) rebuild();
    return i >= 0 && static_cast<size_t>(i) < alone_.size() && alone_[static_cast<size_t>(i)];
}

int AddressMap::find(uint64_t addr) const {
    if (dirty_) rebuild();
    // Last module starting at or below addr, then walk back while an earlier one could still
    // reach addr (only overlapping ranges make this loop run more than once).
    auto it = std::upper_bound(by_load_.begin(), by_load_.end(), addr,
                               [&](uint64_t a, int i) { return a < modules_[i].load_address; });
    int found = -1;
    for (ptrdiff_t k = (it - by_load_.begin()) - 1; k >= 0 && max_end_[k] > addr; --k) {
        int i = by_load_[k];
        if (modules_[i].contains(addr) && i > found) found = i;
    }
    return found;
}

std::string cache_module_path(const mt::reader::Module &m) {
    if (m.build_id.empty()) return m.path;
    return std::filesystem::path(m.path).filename().string();
}

}  // namespace mt::sym
