#include "run_compare.h"

#include <sstream>

namespace e2e {

NormalStack normalize(const mt::reader::Run &run, uint32_t stack_id) {
    NormalStack out;
    for (uint64_t addr : run.stacks.at(stack_id).frames) {
        const mt::reader::Module *hit = nullptr;
        for (const auto &m : run.modules)
            if (m.contains(addr)) hit = &m;
        if (hit == nullptr) {
            out.emplace_back("?", addr);
        } else {
            std::string name = hit->path.substr(hit->path.find_last_of('/') + 1);
            out.emplace_back(name, addr - hit->bias);
        }
    }
    return out;
}

FrameContent frame_content(const mt::reader::Run &run, const mt::reader::Frame &frame) {
    FrameContent content;
    auto add = [&](uint32_t class_id, uint32_t stack_id, uint64_t count, uint64_t req) {
        const auto &c = run.classes.at(class_id);
        auto &[n, r] = content[{c.name_space + "." + c.name, normalize(run, stack_id)}];
        n += count;
        r += req;
    };
    for (const auto &e : frame.event_list) add(e.class_id, e.stack_id, 1, e.size);
    for (const auto &a : frame.aggregates) add(a.class_id, a.stack_id, a.count, a.requested_bytes);
    return content;
}

bool gc_covers_requested(const mt::reader::Frame &frame) {
    for (const auto &e : frame.event_list)
        if (e.gc_size < e.size) return false;
    for (const auto &a : frame.aggregates)
        if (a.gc_bytes < a.requested_bytes) return false;
    return true;
}

std::string diff(const FrameContent &a, const FrameContent &b) {
    if (a == b) return {};
    std::ostringstream out;
    for (const auto &[key, value] : a) {
        auto it = b.find(key);
        if (it == b.end()) {
            out << "class " << key.first << " with a " << key.second.size() << "-frame stack only in the first";
            return out.str();
        }
        if (it->second != value) {
            out << "class " << key.first << ": count " << value.first << " vs " << it->second.first
                << ", requested " << value.second << " vs " << it->second.second;
            return out.str();
        }
    }
    return "the second has " + std::to_string(b.size() - a.size()) + " more (class, stack) entries";
}

}  // namespace e2e
