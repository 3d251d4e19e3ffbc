#include "game_support.h"

#include <memtracer/format.h>

#include "tree.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace mt::test {

std::vector<std::string> game_argv(const std::vector<std::string> &args) {
    std::vector<std::string> argv;
    std::istringstream emulator(MT_EMULATOR);  // a cross build's game runs behind qemu-user
    for (std::string word; emulator >> word;) argv.push_back(word);
    std::string game = MEMTRACER_SAMPLE_GAME;
#ifdef MEMTRACER_SAMPLE_GAME_PROFILER
    // Static players link one GameAssembly each: --hook profiler is the other executable.
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--hook" && args[i + 1] == "profiler") game = MEMTRACER_SAMPLE_GAME_PROFILER;
#endif
    argv.push_back(game);
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

GameRun run_game(const std::filesystem::path &dir, const std::string &tag, const std::vector<std::string> &args) {
    GameRun g;
    g.out = (dir / (tag + ".mt")).string();
    g.expect = (dir / (tag + ".json")).string();
    std::vector<std::string> all = {"--out", g.out, "--expect-json", g.expect, "--quiet"};
    all.insert(all.end(), args.begin(), args.end());
    g.result = run_process(game_argv(all));
    return g;
}

namespace {

std::map<uint64_t, std::string> class_names(const JValue &expect) {
    std::map<uint64_t, std::string> names;
    for (const JValue &c : expect["classes"].a) {
        const std::string &ns = c["namespace"].str();
        names[c["klass"].u64()] = (ns.empty() ? "" : ns + ".") + c["name"].str();
    }
    return names;
}

std::string full_name(const mt::reader::Class &c) {
    return (c.name_space.empty() ? "" : c.name_space + ".") + c.name;
}

// A FINAL frame that is also MERGED holds frame ends the runtime's queue could not take before
// mt_stop (the writer fell behind at the very end, writer_commit.cpp finish): its index, the last
// of those, is a real boundary too.
bool ends_frames(const mt::reader::Frame &f) { return !(f.flags & MT_FRAME_FINAL) || (f.flags & MT_FRAME_MERGED); }

template <class Key, class KeyOf>
Tally<Key> recorded(const mt::reader::Run &run, KeyOf key_of) {
    Tally<Key> t;
    for (const auto &f : run.frames) {
        if (!ends_frames(f)) continue;  // MT_FRAME_FINAL: after the last frame end
        auto &frame = t[f.index];
        for (const auto &e : f.event_list) {
            Cell &c = frame[key_of(run.classes.at(e.class_id))];
            c.count += 1;
            c.bytes += e.size;
        }
        for (const auto &a : f.aggregates) {
            Cell &c = frame[key_of(run.classes.at(a.class_id))];
            c.count += a.count;
            c.bytes += a.requested_bytes;
        }
    }
    return t;
}

template <class Key>
std::string describe(const Key &k) {
    std::ostringstream s;
    if constexpr (std::is_same_v<Key, uint64_t>)
        s << "class 0x" << std::hex << k;
    else
        s << k;
    return s.str();
}

}  // namespace

Tally<uint64_t> expected_by_klass(const JValue &expect) {
    Tally<uint64_t> t;
    for (const JValue &a : expect["allocations"].a)
        t[a["frame"].u64()][a["klass"].u64()] = Cell{a["count"].u64(), a["bytes"].u64()};
    return t;
}

Tally<std::string> expected_by_name(const JValue &expect) {
    auto names = class_names(expect);
    Tally<std::string> t;
    for (const JValue &a : expect["allocations"].a) {
        Cell &c = t[a["frame"].u64()][names.at(a["klass"].u64())];
        c.count += a["count"].u64();
        c.bytes += a["bytes"].u64();
    }
    return t;
}

Tally<uint64_t> recorded_by_klass(const mt::reader::Run &run) {
    return recorded<uint64_t>(run, [](const mt::reader::Class &c) { return c.klass; });
}

Tally<std::string> recorded_by_name(const mt::reader::Run &run) {
    return recorded<std::string>(run, full_name);
}

template <class Key>
std::string first_difference(const Tally<Key> &a, const Tally<Key> &b) {
    auto empty_frames = [](const Tally<Key> &t) {
        Tally<Key> out;
        for (const auto &[f, m] : t)
            if (!m.empty()) out[f] = m;
        return out;
    };
    const Tally<Key> x = empty_frames(a), y = empty_frames(b);
    for (const auto &[frame, classes] : x) {
        auto it = y.find(frame);
        if (it == y.end()) return "frame " + std::to_string(frame) + " missing on the right";
        for (const auto &[k, cell] : classes) {
            auto c = it->second.find(k);
            Cell other = c == it->second.end() ? Cell{} : c->second;
            if (!(other == cell))
                return "frame " + std::to_string(frame) + ", " + describe(k) + ": " + std::to_string(cell.count) +
                       " allocations / " + std::to_string(cell.bytes) + " bytes on the left, " +
                       std::to_string(other.count) + " / " + std::to_string(other.bytes) + " on the right";
        }
        for (const auto &[k, cell] : it->second)
            if (!classes.count(k)) return "frame " + std::to_string(frame) + ", " + describe(k) + " only on the right";
    }
    for (const auto &[frame, classes] : y)
        if (!x.count(frame)) return "frame " + std::to_string(frame) + " missing on the left";
    return "";
}

template std::string first_difference(const Tally<uint64_t> &, const Tally<uint64_t> &);
template std::string first_difference(const Tally<std::string> &, const Tally<std::string> &);

std::vector<uint64_t> frame_boundaries(const mt::reader::Run &run) {
    std::vector<uint64_t> b;
    for (const auto &f : run.frames)
        if (ends_frames(f)) b.push_back(f.index);
    return b;
}

std::vector<uint64_t> common_boundaries(const std::vector<uint64_t> &a, const std::vector<uint64_t> &b) {
    std::vector<uint64_t> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

template <class Key>
Tally<Key> fold(const Tally<Key> &t, const std::vector<uint64_t> &boundaries) {
    Tally<Key> out;
    for (const auto &[frame, classes] : t) {
        auto it = std::lower_bound(boundaries.begin(), boundaries.end(), frame);
        if (it == boundaries.end()) throw std::runtime_error("frame " + std::to_string(frame) + " after the last boundary");
        auto &dest = out[*it];
        for (const auto &[k, cell] : classes) {
            dest[k].count += cell.count;
            dest[k].bytes += cell.bytes;
        }
    }
    return out;
}

template Tally<uint64_t> fold(const Tally<uint64_t> &, const std::vector<uint64_t> &);
template Tally<std::string> fold(const Tally<std::string> &, const std::vector<uint64_t> &);

uint64_t events_in_final_frames(const mt::reader::Run &run) {
    uint64_t n = 0;
    for (const auto &f : run.frames)
        if (!ends_frames(f)) n += f.event_list.size() + f.aggregates.size();
    return n;
}

}  // namespace mt::test
