// shapes.h — a stack's frames as a shape (schema version 5: stack_shapes, shape_frames,
// run_biases; docs/schema.md, *Stack shapes*): the one place that decides how a run's frames
// are stored, for the symbolizer's ingest and for the migration of an older file's stack_frames.
//
// A frame inside a cached module is stored by its cache row and file address; the run's load
// bias of that module (runtime - file address) goes to run_biases once, and the stack_frames view
// adds it back. Every other frame keeps its raw address in the shape: one outside every module,
// one whose module's bias in this run is not the bias first seen for that module (the same
// library mapped twice), and one where file address + bias would overflow SQLite's signed 64-bit
// sum. So the view gives back exactly the raw address of every frame.
#ifndef MEMTRACER_STORE_SHAPES_H
#define MEMTRACER_STORE_SHAPES_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"

namespace mt::store {

struct ShapeFrame {
    uint64_t raw = 0;           // the runtime return address
    int64_t addr_id = 0;        // its cache row; 0: outside every module
    int64_t module_key = 0;     // the row's address_modules key; 0: unknown (the frame keeps its raw address)
    uint64_t file_address = 0;  // the row's file address
};

// The keys of the shapes a file holds, read once (ShapeWriter::expect): every key's bytes back
// to back in one string and an open-addressing table of (hash, offset, length, shape_id). Was an
// unordered_map<std::string, int64_t>: two allocations a key on the load and a node walk a
// lookup, 39M + 41M instructions for a warm run's 24k shapes (docs/benchmarks.md, issue 22,
// twelfth session). A hit compares the key's bytes, so a hash collision never names a shape.
class ShapeKeys {
public:
    void reserve(size_t keys, size_t bytes);
    // The shape of `key`, 0 when unknown (shape ids start at 1); `hash` is hash_key(key).
    int64_t find(std::string_view key, uint64_t hash) const;
    // Enters a key not entered before.
    void add(std::string_view key, uint64_t hash, int64_t shape);
    size_t size() const { return size_; }
    static uint64_t hash_key(std::string_view key);

private:
    static constexpr uint64_t kEmpty = UINT64_MAX;
    struct Slot {
        uint64_t hash = 0;
        uint64_t at = kEmpty;  // offset in bytes_; kEmpty: a free slot
        uint32_t length = 0;
        int64_t shape = 0;
    };
    void rehash(size_t capacity);
    size_t slot_of(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }

    std::string bytes_;
    std::vector<Slot> slots_;
    size_t size_ = 0;
    int shift_ = 64;
};

// Shapes for the stacks of one run, found by their key or written once. Inside the caller's
// transaction; flush() (or the destructor) writes the buffered shape_frames rows.
class ShapeWriter {
public:
    ShapeWriter(Db &db, int64_t run_id);
    // The shape of these frames (innermost first): its shape_id, or 0 for no frames (the stacks
    // row's shape_id is then NULL). Writes the run's bias of each module it meets first.
    int64_t shape_of(std::span<const ShapeFrame> frames);
    // Before `stacks` calls of shape_of: when they are many against the shapes the file holds,
    // every key is read in one scan (a warm run of 24k stacks: 24k index seeks were 164M
    // instructions), and shape_of looks keys up in memory.
    void expect(size_t stacks);
    void flush() { frames_.flush(); }
    uint64_t shapes_written() const { return written_; }

private:
    bool relative(const ShapeFrame &f);  // stored as file address + the run's bias

    Db &db_;
    int64_t run_id_;
    std::unordered_map<int64_t, int64_t> bias_;  // module_key -> this run's bias (run_biases)
    Stmt find_, add_shape_, add_bias_;
    BatchInsert frames_;
    std::string key_;
    ShapeKeys known_;  // every shape's key, after expect() read them
    int64_t last_module_ = 0, last_bias_ = 0;  // the last module relative() met, and its bias (most frames share one)
    bool all_known_ = false;
    std::vector<uint8_t> raw_;  // by frame of the shape being keyed: stored raw
    uint64_t written_ = 0;
};

// The version-5 shape key of frames whose relative/raw choice is made (exposed for tests).
void append_varint(std::string &out, uint64_t v);
// The same bytes written at `out` (room for 10): the end of what was written.
char *put_varint(char *out, uint64_t v);

}  // namespace mt::store

#endif
