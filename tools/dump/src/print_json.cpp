// JSON rendering: the same content as the text, as one document. 64-bit addresses are hex
// strings (JSON readers commonly hold numbers as doubles); counts and sizes are numbers.
#include "describe.h"
#include "json_writer.h"
#include "printers.h"

namespace mt::dump {
namespace {

void strings(JsonWriter &j, std::string_view key, const std::vector<std::string> &v) {
    j.key(key).begin_array();
    for (const std::string &s : v) j.value(s);
    j.end_array();
}

void header(JsonWriter &j, const Summary &s) {
    const reader::Header &h = s.header;
    j.key("header").begin_object();
    j.field("version", h.version).field("start_unix_ns", h.start_unix_ns).field("start_time", utc_time(h.start_unix_ns));
    j.field("pid", h.pid).field("arch", arch_name(h.arch)).field("pointer_size", h.pointer_size);
    j.field("mode", mode_name(s)).field("sample_interval_bytes", h.sample_interval_bytes);
    j.field("flags", h.flags);
    strings(j, "flag_names", file_flag_names(h.flags));
    j.field("max_stack_depth", h.max_stack_depth).field("tick_hz", h.tick_hz);
    j.end_object();
    j.key("info").begin_object();
    for (const auto &[k, v] : h.info) j.field(k, v);
    j.end_object();
}

void dictionaries(JsonWriter &j, const Summary &s) {
    j.key("modules").begin_array();
    for (const reader::Module &m : s.modules) {
        j.begin_object().field("id", m.id).field("kind", module_kind_name(m.kind)).field("path", m.path);
        j.field("load_address", hex(m.load_address)).field("size", m.size).field("bias", hex(m.bias));
        j.field("text_vmaddr", hex(m.text_vmaddr)).field("build_id", hex_bytes(m.build_id)).end_object();
    }
    j.end_array().key("threads").begin_array();
    for (const reader::Thread &t : s.threads)
        j.begin_object().field("id", t.id).field("os_tid", t.os_tid).field("name", t.name).end_object();
    j.end_array().key("classes").begin_array();
    for (const reader::Class &c : s.classes) {
        j.begin_object().field("id", c.id).field("klass", hex(c.klass)).field("namespace", c.name_space);
        j.field("name", c.name).field("flags", c.flags);
        strings(j, "flag_names", class_flag_names(c.flags));
        j.field("element_size", c.element_size).end_object();
    }
    j.end_array().key("stacks").begin_object();
    j.field("count", s.stacks).field("frames", s.stack_frames).field("max_depth", s.max_stack_depth).end_object();
}

void frame_lists(JsonWriter &j, const reader::Frame &f) {
    j.key("event_list").begin_array();
    for (const reader::Event &e : f.event_list)
        j.begin_object().field("thread", e.thread).field("tick", e.tick).field("class", e.class_id)
            .field("stack", e.stack_id).field("size", e.size).field("gc_size", e.gc_size)
            .field("address", hex(e.address)).end_object();
    j.end_array().key("aggregates").begin_array();
    for (const reader::Aggregate &a : f.aggregates)
        j.begin_object().field("class", a.class_id).field("stack", a.stack_id).field("count", a.count)
            .field("requested_bytes", a.requested_bytes).field("gc_bytes", a.gc_bytes).field("samples", a.samples)
            .end_object();
    j.end_array().key("gc_list").begin_array();
    for (const reader::GcEvent &g : f.gcs)
        j.begin_object().field("gc_no", g.gc_no).field("start_tick", g.start_tick).field("end_tick", g.end_tick)
            .field("heap_size", g.heap_size).field("free_bytes", g.free_bytes)
            .field("reclaimed_bytes", g.reclaimed_bytes).end_object();
    j.end_array().key("death_list").begin_array();
    for (const reader::Death &d : f.deaths)
        j.begin_object().field("address", hex(d.address)).field("alloc_frame_seq", d.alloc_frame_seq)
            .field("class", d.class_id).field("stack", d.stack_id).field("gc_size", d.gc_size).end_object();
    j.end_array();
}

void frames(JsonWriter &j, const Summary &s, const Options &opts) {
    j.key("frames").begin_object().field("committed", s.committed).field("shown", uint64_t{s.rows.size()});
    j.key("rows").begin_array();
    for (const FrameRow &r : s.rows) {
        const reader::Frame &f = r.frame;
        j.begin_object().field("seq", f.seq).field("index", f.index).field("start_tick", f.start_tick);
        j.field("end_tick", f.end_tick).key("duration_ms").value(ticks_to_ms(s, f.end_tick - f.start_tick), 3);
        j.field("events", f.events).field("records", r.records).field("requested_bytes", f.requested_bytes);
        j.field("gc_bytes", f.gc_bytes).field("dropped", f.dropped).field("heap_size", f.heap_size);
        j.field("free_bytes", f.free_bytes).field("gcs", r.gcs).field("deaths", r.deaths).field("flags", f.flags);
        strings(j, "flag_names", frame_flag_names(f.flags));
        if (opts.events) frame_lists(j, f);
        j.end_object();
    }
    const Totals &t = s.totals;
    j.end_array().key("totals").begin_object().key("duration_ms").value(ticks_to_ms(s, t.ticks), 3);
    j.field("events", t.events).field("records", t.records).field("requested_bytes", t.requested_bytes);
    j.field("gc_bytes", t.gc_bytes).field("dropped", t.dropped).field("gcs", t.gcs).field("deaths", t.deaths);
    j.field("max_heap_size", t.max_heap).end_object().end_object();
}

void counters(JsonWriter &j, const Summary &s) {
    j.key("counters");
    if (!s.result.has_counters) {
        j.null();
        return;
    }
    const reader::Counters &c = s.result.counters;
    j.begin_object().field("allocations_seen", c.allocations_seen).field("events_recorded", c.events_recorded);
    j.field("events_dropped", c.events_dropped).field("events_sampled_out", c.events_sampled_out);
    j.field("events_written", c.events_written).field("bytes_written", c.bytes_written);
    j.field("frames_written", c.frames_written).field("stacks_known", c.stacks_known);
    j.field("classes_known", c.classes_known).field("threads_known", c.threads_known);
    j.field("last_flush_unix_ns", c.last_flush_unix_ns).field("last_flush_duration_ns", c.last_flush_duration_ns);
    j.field("reentrant_skipped", c.reentrant_skipped).field("running", c.running).field("paused", c.paused);
    j.field("disabled", c.disabled).end_object();
}

void end(JsonWriter &j, const Summary &s) {
    const reader::ReadResult &r = s.result;
    j.key("end").begin_object().field("stop", reader::stop_name(r.stop)).field("offset", r.stop_offset);
    j.field("reason", r.stop_reason).field("uncommitted_events", r.uncommitted_events);
    if (r.stop == reader::Stop::End)
        j.field("end_reason", end_reason_name(r.end_reason)).field("end_message", r.end_message);
    j.end_object();
}

}  // namespace

void print_json(const Summary &s, const Options &opts, std::ostream &out) {
    JsonWriter j(out);
    j.begin_object().field("file", opts.path);
    header(j, s);
    dictionaries(j, s);
    frames(j, s, opts);
    counters(j, s);
    end(j, s);
    j.end_object();
}

}  // namespace mt::dump
