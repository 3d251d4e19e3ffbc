// run_loader.cpp — load_file/load_buffer: a Visitor that keeps everything, for tests and small
// captures. Renamed threads keep their id and take the latest name.
#include <memtracer/reader.h>

namespace mt::reader {
namespace {

class Collector : public Visitor {
public:
    explicit Collector(Run &run) : run_(run) {}
    void on_header(const Header &h) override { run_.header = h; }
    void on_module(const Module &m) override { run_.modules.push_back(m); }
    void on_thread(const Thread &t) override {
        if (t.id < run_.threads.size())
            run_.threads[t.id] = t;
        else
            run_.threads.push_back(t);
    }
    void on_class(const Class &c) override { run_.classes.push_back(c); }
    void on_stack(const Stack &s) override { run_.stacks.push_back(s); }
    void on_frame(const Frame &f) override { run_.frames.push_back(f); }

private:
    Run &run_;
};

}  // namespace

Run load_file(const std::string &path) {
    Run run;
    Collector c(run);
    run.result = read_file(path, c);
    return run;
}

Run load_buffer(const uint8_t *data, size_t size) {
    Run run;
    Collector c(run);
    run.result = read_buffer(data, size, c);
    return run;
}

}  // namespace mt::reader
