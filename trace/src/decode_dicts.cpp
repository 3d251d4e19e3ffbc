// Dictionary and bookkeeping chunks: INFO, MODULES, THREADS, CLASSES, STACKS, COUNTERS, END.
#include "decode_fields.h"

namespace mt::reader::detail {

// Ids are dense and in order of first definition, so a new id must be exactly the next one.
uint32_t read_next_id(Cursor &c, const char *field, const EntryContext &x) {
    uint64_t id = c.u(field);
    if (id != x.next_id)
        c.fail(std::string(x.dictionary) + " id is " + std::to_string(id) + ", expected " + std::to_string(x.next_id) +
               " (ids are dense, in order of definition)");
    return static_cast<uint32_t>(id);
}

uint32_t read_thread_id(Cursor &c, const char *field, EntryContext &x) {
    uint64_t id = c.u(field);
    if (id > x.known_threads)  // == known defines the next thread; below renames one
        c.fail("thread id is " + std::to_string(id) + " but only " + std::to_string(x.known_threads) +
               " threads are defined, so the next new id must be " + std::to_string(x.known_threads));
    if (id == x.known_threads) ++x.known_threads;
    return static_cast<uint32_t>(id);
}

namespace {

// A dictionary chunk: count, then count entries, the first with id `first`.
template <class T>
std::vector<T> decode_dictionary(Cursor &c, const char *kind, size_t first, EntryContext x = {}) {
    uint64_t n = c.count("count", kFieldCount<T>);
    std::vector<T> out(n);
    x.dictionary = kind;
    for (uint64_t i = 0; i < n; ++i) {
        c.record(kind, i);
        x.next_id = first + i;
        decode_entry(c, x, out[i]);
    }
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> decode_info(Cursor &c) {
    std::vector<std::pair<std::string, std::string>> out;
    for (InfoEntry &e : decode_dictionary<InfoEntry>(c, "entry", 0)) out.emplace_back(std::move(e.key), std::move(e.value));
    return out;
}

std::vector<Module> decode_modules(Cursor &c, size_t first) { return decode_dictionary<Module>(c, "module", first); }

std::vector<Thread> decode_threads(Cursor &c, size_t known) {
    EntryContext x;
    x.known_threads = known;
    return decode_dictionary<Thread>(c, "thread", 0, x);
}

std::vector<Class> decode_classes(Cursor &c, size_t first) { return decode_dictionary<Class>(c, "class", first); }

std::vector<Stack> decode_stacks(Cursor &c, size_t first, uint32_t version) {
    if (version >= 3) return decode_dictionary<Stack>(c, "stack", first);
    auto v2 = decode_dictionary<StackV2>(c, "stack", first);
    return std::vector<Stack>(std::make_move_iterator(v2.begin()), std::make_move_iterator(v2.end()));
}

Counters decode_counters(Cursor &c) {
    Counters k;
    EntryContext x;
    decode_entry(c, x, k);
    return k;
}

EndFields decode_end(Cursor &c) {
    EndFields e;
    EntryContext x;
    decode_entry(c, x, e);
    return e;
}

}  // namespace mt::reader::detail
