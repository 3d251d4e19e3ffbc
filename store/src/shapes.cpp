#include "memtracer/store/shapes.h"

#include "memtracer/store/writer_sql.h"

namespace mt::store {

void append_varint(std::string &out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
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
    known_.reserve(static_cast<size_t>(shapes) + stacks);
    while (all.step()) known_.emplace(all.blob(1), all.i64(0));
    all_known_ = true;
}

bool ShapeWriter::relative(const ShapeFrame &f) {
    if (f.addr_id <= 0 || f.module_key <= 0) return false;
    // SQLite adds signed 64-bit integers and turns an overflowing sum into a REAL: keep the raw
    // address where file address + bias would overflow (never for user-space addresses).
    const int64_t bias = static_cast<int64_t>(f.raw - f.file_address);
    int64_t sum = 0;
    if (__builtin_add_overflow(static_cast<int64_t>(f.file_address), bias, &sum)) return false;
    auto [it, fresh] = bias_.try_emplace(f.module_key, bias);
    if (fresh) add_bias_.bind(1, run_id_).bind(2, f.module_key).bind(3, bias).run();
    return it->second == bias;  // another mapping of the same module in this run: raw
}

int64_t ShapeWriter::shape_of(std::span<const ShapeFrame> frames) {
    if (frames.empty()) return 0;
    key_.clear();
    // Whether each frame is relative is part of the key: the same addr_ids stored raw are
    // another shape, so a key's rows are always the same rows.
    raw_.clear();
    for (const ShapeFrame &f : frames) {
        bool rel = relative(f);
        raw_.push_back(!rel);
        append_varint(key_, static_cast<uint64_t>(f.addr_id) << 1 | (rel ? 0 : 1));
        if (!rel) append_varint(key_, f.raw);
    }
    if (all_known_) {
        if (auto it = known_.find(key_); it != known_.end()) return it->second;
    } else {
        find_.bind_blob(1, key_);
        const bool found = find_.step();
        const int64_t id = found ? find_.i64(0) : 0;
        find_.reset();
        if (found) return id;
    }
    add_shape_.bind_blob(1, key_).bind(2, static_cast<int64_t>(frames.size())).run();
    const int64_t shape = db_.last_insert_rowid();
    if (all_known_) known_.emplace(key_, shape);
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
