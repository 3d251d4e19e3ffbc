// error.h — what store/ throws: one type for every SQLite failure of the symbolizer and the
// viewer, carrying SQLite's result code, the database file and the statement, so each side can
// turn it into its own error (exit status 5, an HTTP 500, a refusal at startup) at its edge.
#ifndef MEMTRACER_STORE_ERROR_H
#define MEMTRACER_STORE_ERROR_H

#include <stdexcept>
#include <string>

namespace mt::store {

class Error : public std::runtime_error {
public:
    // `what` is the whole sentence shown to a user; `message` SQLite's own text (or ours, for a
    // check of the schema); `code` SQLite's extended result code, 0 when SQLite did not fail.
    Error(const std::string &what, int code = 0, std::string file = {}, std::string sql = {}, std::string message = {})
        : std::runtime_error(what), code_(code), file_(std::move(file)), sql_(std::move(sql)),
          message_(message.empty() ? what : std::move(message)) {}
    int code() const { return code_; }
    const std::string &file() const { return file_; }
    const std::string &sql() const { return sql_; }
    const std::string &message() const { return message_; }

private:
    int code_;
    std::string file_, sql_, message_;
};

}  // namespace mt::store

#endif
