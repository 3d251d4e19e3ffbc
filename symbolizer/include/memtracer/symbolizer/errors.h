// errors.h — the symbolizer's failures, each carrying the exit status the tool reports for it.
// Library code throws these; only the tool's main() turns them into a message and a status, so
// every failure is reported once, at the edge, with what went wrong and where.
#ifndef MEMTRACER_SYM_ERRORS_H
#define MEMTRACER_SYM_ERRORS_H

#include <stdexcept>
#include <string>

#include "memtracer/store/error.h"

namespace mt::sym {

// Exit statuses of memtracer-symbolize (documented in --help and docs/symbolizer.md).
enum class ExitCode : int {
    Ok = 0,
    Failure = 1,   // unexpected internal failure
    Usage = 2,     // bad command line
    Input = 3,     // a run.mt that cannot be read, is corrupt or was already ingested
    Symbols = 4,   // symbol file unreadable, id mismatch, malformed IL2CPP symbol files
    Database = 5,  // the database cannot be opened, is not ours, is newer, or a write failed
};

struct Error : std::runtime_error {
    ExitCode code;
    Error(ExitCode c, const std::string &what) : std::runtime_error(what), code(c) {}
};

inline Error usage_error(const std::string &m) { return {ExitCode::Usage, m}; }
inline Error input_error(const std::string &m) { return {ExitCode::Input, m}; }
inline Error symbols_error(const std::string &m) { return {ExitCode::Symbols, m}; }
inline Error database_error(const std::string &m) { return {ExitCode::Database, m}; }
// store/'s failures become the symbolizer's at its edge (tool/main.cpp): exit status 5.
inline Error database_error(const store::Error &e) { return {ExitCode::Database, e.what()}; }

}  // namespace mt::sym

#endif
