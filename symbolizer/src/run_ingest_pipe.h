// run_ingest_pipe.h — a whole-file ingest on two threads. A reading thread walks run.mt (chunk
// CRCs, decoding) and sums each frame's events (FrameDigester); the caller's thread gets the
// dictionaries and the digested frames, in file order, and writes the database, which stays
// single-threaded. A session-sized run is ~120M events: reading and summing them, and the SQLite
// inserts of the ~4M rows they become, each cost about half of a one-thread ingest
// (docs/benchmarks.md, issue 22's third session).
#ifndef MEMTRACER_SYM_RUN_INGEST_PIPE_H
#define MEMTRACER_SYM_RUN_INGEST_PIPE_H

#include <string>

#include "memtracer/reader.h"

namespace mt::sym {

class RunIngest;

// What mt::reader::read_file(path, run) does, and with the same result: the same calls reach
// `run` in the same order, whatever `run` throws (or the reader's FormatError) comes out of
// here, and the reading thread is stopped and joined first. A run recorded with lifetimes
// passes its frames whole (their events are the lifetimes' input).
mt::reader::ReadResult read_pipelined(const std::string &path, RunIngest &run);

}  // namespace mt::sym

#endif
