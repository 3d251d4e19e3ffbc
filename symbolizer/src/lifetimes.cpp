#include "lifetimes.h"

#include <algorithm>
#include <map>

namespace mt::sym {

void Lifetimes::on_alloc(uint32_t class_id, uint32_t stack_id, uint64_t seq, uint64_t count, uint64_t gc_bytes) {
    Net &n = net_[{class_id, stack_id, seq}];
    n.count += static_cast<int64_t>(count);
    n.gc_bytes += static_cast<int64_t>(gc_bytes);
    live_bytes_ += static_cast<int64_t>(gc_bytes);
}

void Lifetimes::on_death(const mt::reader::Death &d) {
    Net &n = net_[{d.class_id, d.stack_id, d.alloc_frame_seq}];
    n.count -= 1;
    n.gc_bytes -= static_cast<int64_t>(d.gc_size);
    live_bytes_ -= static_cast<int64_t>(d.gc_size);
}

std::vector<Lifetimes::Survivor> Lifetimes::survivors(uint64_t last_gc_seq) const {
    std::map<std::pair<uint32_t, uint32_t>, Survivor> by_cs;
    for (const auto &[k, n] : net_) {
        if (n.count <= 0) continue;
        auto [it, fresh] = by_cs.try_emplace({k.class_id, k.stack_id}, Survivor{k.class_id, k.stack_id, 0, 0, k.seq, 0});
        Survivor &s = it->second;
        s.count += static_cast<uint64_t>(n.count);
        s.gc_bytes += static_cast<uint64_t>(std::max<int64_t>(0, n.gc_bytes));
        s.first_seq = std::min(s.first_seq, k.seq);
        s.frames += k.seq < last_gc_seq;
    }
    std::vector<Survivor> out;
    out.reserve(by_cs.size());
    for (auto &[k, s] : by_cs) out.push_back(s);
    return out;
}

}  // namespace mt::sym
