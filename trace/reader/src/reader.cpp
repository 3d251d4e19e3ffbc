// reader.cpp — the public entry points of mt::reader: header check (the only throwing part),
// then one Session over the chunks.
#include <memtracer/reader.h>

#include "file_bytes.h"
#include "header_parse.h"
#include "session.h"

namespace mt::reader {

ReadResult read_buffer(const uint8_t *data, size_t size, Visitor &visitor) {
    Header header = detail::parse_file_header(data, size);
    return detail::Session(data, size, std::move(header), visitor).run();
}

ReadResult read_file(const std::string &path, Visitor &visitor) {
    detail::FileBytes bytes(path);
    try {
        detail::Session session(bytes.data(), bytes.size(), detail::parse_file_header(bytes.data(), bytes.size()),
                                visitor);
        session.on_walked([&bytes](uint64_t pos) { bytes.release_before(pos); });
        return session.run();
    } catch (const FormatError &e) {
        throw FormatError(path + ": " + e.what());
    }
}

const char *stop_name(Stop s) {
    switch (s) {
    case Stop::End: return "end";
    case Stop::Eof: return "eof";
    case Stop::Truncated: return "truncated";
    case Stop::Corrupt: return "corrupt";
    }
    return "unknown";
}

std::string Header::info_value(const std::string &key) const {
    for (const auto &[k, v] : info)
        if (k == key) return v;
    return "";
}

}  // namespace mt::reader
