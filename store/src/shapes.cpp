#include "memtracer/store/shapes.h"

#include <bit>
#include <cstring>
#include <functional>

#include "memtracer/store/writer_sql.h"

namespace mt::store {

char *put_varint(char *out, uint64_t v) {
    while (v >= 0x80) {
        *out++ = static_cast<char>(v | 0x80);
        v >>= 7;
    }
    *out++ = static_cast<char>(v);
    return out;
}

uint64_t ShapeKeys::hash_key(std::string_view key) {
    // Spread over the high bits, which pick the slot.
    return std::hash<std::string_view>{}(key) * 0x9E3779B97F4A7C15ull;
}

void ShapeKeys::reserve(size_t keys, size_t bytes) {
    bytes_.reserve(bytes);
    size_t capacity = 16;
    while (capacity < 2 * keys) capacity *= 2;  // at most half full
    if (capacity > slots_.size()) rehash(capacity);
}

void ShapeKeys::rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    shift_ = 64 - std::countr_zero(capacity);
    const size_t mask = capacity - 1;
    for (const Slot &s : old) {
        if (s.at == kEmpty) continue;
        size_t i = slot_of(s.hash);
        while (slots_[i].at != kEmpty) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

int64_t ShapeKeys::find(std::string_view key, uint64_t hash) const {
    if (slots_.empty()) return 0;
    const size_t mask = slots_.size() - 1;
    for (size_t i = slot_of(hash);; i = (i + 1) & mask) {
        const Slot &s = slots_[i];
        if (s.at == kEmpty) return 0;
        if (s.hash == hash && s.length == key.size() && std::memcmp(bytes_.data() + s.at, key.data(), key.size()) == 0)
            return s.shape;
    }
}

void ShapeKeys::add(std::string_view key, uint64_t hash, int64_t shape) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<size_t>(16, 2 * slots_.size()));
    const size_t mask = slots_.size() - 1;
    size_t i = slot_of(hash);
    while (slots_[i].at != kEmpty) i = (i + 1) & mask;
    slots_[i] = {hash, bytes_.size(), static_cast<uint32_t>(key.size()), shape};
    bytes_.append(key);
    ++size_;
}

void append_varint(std::string &out, uint64_t v) {
    char buf[10];
    out.append(buf, put_varint(buf, v));
}

ShapeWriter::ShapeWriter(Db &db, int64_t run_id)
    : db_(db), run_id_(run_id), find_(db.prepare(sql::kFindShape)), add_shape_(db.prepare(sql::kInsertShape)),
      add_bias_(db.prepare(sql::kInsertRunBias)), frames_(db, sql::kInsertShapeFrames, 5, 256) {
    // A followed run's later batch: the biases its earlier batches stored.
    Stmt known = db.prepare(sql::kRunBiases);
    known.bind(1, run_id);
    while (known.step()) bias_.emplace(known.i64(0), known.i64(1));
}

void ShapeWriter::expect(size_t stacks) {
    if (all_known_) return;
    // max(shape_id), one descent: about the file's number of shapes (no writer deletes one).
    const int64_t shapes = db_.query_int("SELECT max(shape_id) FROM stack_shapes").value_or(0);
    if (static_cast<int64_t>(stacks) * 4 < shapes) return;  // few stacks in a big file: seek each
    Stmt all = db_.prepare(sql::kAllShapes);
    known_.reserve(static_cast<size_t>(shapes) + stacks, static_cast<size_t>(shapes) * 32);
    while (all.step()) {
        std::string_view key = all.blob(1);
        known_.add(key, ShapeKeys::hash_key(key), all.i64(0));
    }
    all_known_ = true;
}

bool ShapeWriter::relative(const ShapeFrame &f) {
    if (f.addr_id <= 0 || f.module_key <= 0) return false;
    // SQLite adds signed 64-bit integers and turns an overflowing sum into a REAL: keep the raw
    // address where file address + bias would overflow (never for user-space addresses).
    const int64_t bias = static_cast<int64_t>(f.raw - f.file_address);
    int64_t sum = 0;
    if (__builtin_add_overflow(static_cast<int64_t>(f.file_address), bias, &sum)) return false;
    // Most frames are in the module the last one was in: its bias without the map's lookup.
    if (f.module_key == last_module_) return last_bias_ == bias;
    auto [it, fresh] = bias_.try_emplace(f.module_key, bias);
    if (fresh) add_bias_.bind(1, run_id_).bind(2, f.module_key).bind(3, bias).run();
    last_module_ = f.module_key;
    last_bias_ = it->second;
    return it->second == bias;  // another mapping of the same module in this run: raw
}

int64_t ShapeWriter::shape_of(std::span<const ShapeFrame> frames) {
    if (frames.empty()) return 0;
    key_.clear();
    // Whether each frame is relative is part of the key: the same addr_ids stored raw are
    // another shape, so a key's rows are always the same rows.
    // Written through a pointer into room for the longest key (20 bytes a frame: two varints),
    // not a push_back a byte.
    raw_.resize(frames.size());
    key_.resize(frames.size() * 20);
    char *end = key_.data();
    for (size_t pos = 0; pos < frames.size(); ++pos) {
        const ShapeFrame &f = frames[pos];
        const bool rel = relative(f);
        raw_[pos] = !rel;
        end = put_varint(end, static_cast<uint64_t>(f.addr_id) << 1 | (rel ? 0 : 1));
        if (!rel) end = put_varint(end, f.raw);
    }
    key_.resize(static_cast<size_t>(end - key_.data()));
    uint64_t hash = 0;
    if (all_known_) {
        hash = ShapeKeys::hash_key(key_);
        if (int64_t id = known_.find(key_, hash)) return id;
    } else {
        find_.bind_blob(1, key_);
        const bool found = find_.step();
        const int64_t id = found ? find_.i64(0) : 0;
        find_.reset();
        if (found) return id;
    }
    add_shape_.bind_blob(1, key_).bind(2, static_cast<int64_t>(frames.size())).run();
    const int64_t shape = db_.last_insert_rowid();
    if (all_known_) known_.add(key_, hash, shape);
    ++written_;
    for (size_t pos = 0; pos < frames.size(); ++pos) {
        const ShapeFrame &f = frames[pos];
        frames_.add(shape).add(static_cast<int64_t>(pos));
        f.addr_id > 0 ? frames_.add(f.addr_id) : frames_.add_null();
        if (raw_[pos]) frames_.add_null().add(f.raw);
        else frames_.add(f.module_key).add(f.file_address);
        frames_.end_row();
    }
    return shape;
}

}  // namespace mt::store
