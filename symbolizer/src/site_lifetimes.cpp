#include "site_lifetimes.h"

#include "memtracer/store/writer_sql.h"

namespace mt::sym {

void append_varint(std::string &out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>(0x80 | (v & 0x7F)));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

DeathSites::DeathSites(store::Db &db, int64_t run_id)
    : run_id_(run_id),
      insert_(db.prepare(store::sql::kInsertDeathSite)) {}

void DeathSites::add(const mt::reader::Frame &f, const std::vector<int64_t> &threads) {
    if (f.deaths.empty()) return;
    frame_.clear();
    for (size_t i = 0; i < f.deaths.size(); ++i) {
        const auto &d = f.deaths[i];
        // A death names its allocation frame; the runtime never reports one from a later frame,
        // but a corrupt file could: age 0 then, never a wrapped-around huge age.
        uint64_t age = f.seq > d.alloc_frame_seq ? f.seq - d.alloc_frame_seq : 0;
        auto &c = frame_[{d.class_id, d.stack_id, threads[i]}][age];
        c.first += 1;
        c.second += d.gc_size;
    }
    for (const auto &[cs, ages] : frame_) {
        blob_.clear();
        for (const auto &[age, c] : ages) {
            append_varint(blob_, age);
            append_varint(blob_, c.first);
            append_varint(blob_, c.second);
        }
        insert_.bind(1, run_id_).bind(2, f.seq).bind(3, std::get<0>(cs)).bind(4, std::get<1>(cs)).bind_blob(5, blob_)
            .bind(6, std::get<2>(cs)).run();
    }
}

}  // namespace mt::sym
