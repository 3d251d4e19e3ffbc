#include "lifetimes.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace mt::sym {

void Lifetimes::on_alloc(uint32_t class_id, uint32_t stack_id, int64_t thread, uint64_t seq, uint64_t count,
                         uint64_t gc_bytes) {
    Net &n = net_[{class_id, stack_id, seq, thread}];
    n.count += static_cast<int64_t>(count);
    n.gc_bytes += static_cast<int64_t>(gc_bytes);
    live_bytes_ += static_cast<int64_t>(gc_bytes);
}

void Lifetimes::on_event(uint64_t address, uint64_t seq, uint32_t thread, uint32_t class_id, uint32_t stack_id) {
    born_.emplace(address, Born{seq, born_count_++, thread, class_id, stack_id});
}

int64_t Lifetimes::death_thread(const mt::reader::Death &d) {
    auto [b, e] = born_.equal_range(d.address);
    auto best = e;
    for (auto it = b; it != e; ++it) {
        const Born &x = it->second;
        if (x.seq == d.alloc_frame_seq && x.class_id == d.class_id && x.stack_id == d.stack_id &&
            (best == e || x.order < best->second.order))
            best = it;
    }
    if (best == e) {
        ++unmatched_;
        return -1;
    }
    int64_t t = best->second.thread;
    born_.erase(best);
    return t;
}

void Lifetimes::on_death(const mt::reader::Death &d, int64_t thread) {
    Net &n = net_[{d.class_id, d.stack_id, d.alloc_frame_seq, thread}];
    n.count -= 1;
    n.gc_bytes -= static_cast<int64_t>(d.gc_size);
    live_bytes_ -= static_cast<int64_t>(d.gc_size);
}

std::vector<Lifetimes::Survivor> Lifetimes::survivors(uint64_t last_gc_seq) const {
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, Survivor> by_cs;
    std::map<std::pair<uint32_t, uint32_t>, std::set<uint64_t>> seqs;  // a frame counts once over threads
    for (const auto &[k, n] : net_) {
        if (n.count <= 0) continue;
        if (k.seq < last_gc_seq) seqs[{k.class_id, k.stack_id}].insert(k.seq);
        auto [it, fresh] = by_cs.try_emplace({k.class_id, k.stack_id, k.thread},
                                             Survivor{k.class_id, k.stack_id, k.thread, 0, 0, k.seq, 0, 0});
        Survivor &s = it->second;
        s.count += static_cast<uint64_t>(n.count);
        s.gc_bytes += static_cast<uint64_t>(std::max<int64_t>(0, n.gc_bytes));
        s.first_seq = std::min(s.first_seq, k.seq);
        s.frames += k.seq < last_gc_seq;
    }
    std::vector<Survivor> out;
    out.reserve(by_cs.size());
    for (auto &[k, s] : by_cs) {
        auto it = seqs.find({s.class_id, s.stack_id});
        s.all_frames = it == seqs.end() ? 0 : it->second.size();
        out.push_back(s);
    }
    return out;
}

}  // namespace mt::sym
