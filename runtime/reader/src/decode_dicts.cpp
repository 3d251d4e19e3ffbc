// Dictionary and bookkeeping chunks: INFO, MODULES, THREADS, CLASSES, STACKS, COUNTERS.
#include "decode.h"

namespace mt::reader::detail {
namespace {

// Ids are dense and in order of first definition, so a new id must be exactly the next one.
uint32_t next_id(Cursor &c, size_t expected, const char *dictionary) {
    uint64_t id = c.u("id");
    if (id != expected)
        c.fail(std::string(dictionary) + " id is " + std::to_string(id) + ", expected " + std::to_string(expected) +
               " (ids are dense, in order of definition)");
    return static_cast<uint32_t>(id);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> decode_info(Cursor &c) {
    uint64_t n = c.count("count", 2);
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("entry", i);
        std::string key = c.str("key");
        out.emplace_back(std::move(key), c.str("value"));
    }
    return out;
}

std::vector<Module> decode_modules(Cursor &c, size_t first) {
    uint64_t n = c.count("count", 8);
    std::vector<Module> out(n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("module", i);
        Module &m = out[i];
        m.id = next_id(c, first + i, "module");
        m.kind = static_cast<uint32_t>(c.u("kind"));
        m.path = c.str("path");
        m.load_address = c.u("load_address");
        m.size = c.u("size");
        m.bias = c.u("bias");
        m.text_vmaddr = c.u("text_vmaddr");
        m.build_id = c.bytes("build_id");
    }
    return out;
}

std::vector<Thread> decode_threads(Cursor &c, size_t known) {
    uint64_t n = c.count("count", 3);
    std::vector<Thread> out(n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("thread", i);
        Thread &t = out[i];
        uint64_t id = c.u("id");
        if (id > known)  // == known defines the next thread; below renames one
            c.fail("thread id is " + std::to_string(id) + " but only " + std::to_string(known) +
                   " threads are defined, so the next new id must be " + std::to_string(known));
        if (id == known) ++known;
        t.id = static_cast<uint32_t>(id);
        t.os_tid = c.u("os_tid");
        t.name = c.str("name");
    }
    return out;
}

std::vector<Class> decode_classes(Cursor &c, size_t first) {
    uint64_t n = c.count("count", 6);
    std::vector<Class> out(n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("class", i);
        Class &k = out[i];
        k.id = next_id(c, first + i, "class");
        k.klass = c.u("klass");
        k.name = c.str("name");
        k.name_space = c.str("namespace");
        k.flags = static_cast<uint32_t>(c.u("flags"));
        k.element_size = c.u("element_size");
    }
    return out;
}

std::vector<Stack> decode_stacks(Cursor &c, size_t first) {
    uint64_t n = c.count("count", 2);
    std::vector<Stack> out(n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("stack", i);
        Stack &s = out[i];
        s.id = next_id(c, first + i, "stack");
        uint64_t depth = c.count("depth", 1);
        s.frames.resize(depth);
        uint64_t pc = 0;
        for (uint64_t k = 0; k < depth; ++k) s.frames[k] = pc += static_cast<uint64_t>(c.s("frame"));
    }
    return out;
}

Counters decode_counters(Cursor &c) {
    Counters k;
    for (uint64_t *f : {&k.allocations_seen, &k.events_recorded, &k.events_dropped, &k.events_sampled_out,
                        &k.events_written, &k.bytes_written, &k.frames_written, &k.stacks_known,
                        &k.classes_known, &k.threads_known, &k.last_flush_unix_ns, &k.last_flush_duration_ns,
                        &k.reentrant_skipped, &k.running, &k.paused, &k.disabled, &k.reserved})
        *f = c.u("counter");
    return k;
}

}  // namespace mt::reader::detail
