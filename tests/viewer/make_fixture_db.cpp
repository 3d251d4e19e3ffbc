// make_fixture_db.cpp — the viewer's fixture database, written through store/ (the database
// contract): store::open_database creates it from the embedded schema, every row goes in with
// one of store/'s named statements (writer_sql.h), the symbolizer's own SQL. Two uses:
//  * the test fixture (default scale): 2 runs of two builds, a few hundred frames, classes such
//    as System.String / List`1 / Node, symbolized stacks with inline chains, allocation sites,
//    GC events, markers, per-thread rows, hand-written lifetimes in run 2. Deterministic: the
//    numbers follow Python's random.Random(seed) draw for draw (py_random.h), so the databases
//    are those the tests' literal numbers were taken from (tests/viewer, tests/report, the page).
//  * the benchmark databases (--frames 50000 50000 --stacks 2000 ...), same shape at scale.
//
//   mt_make_fixture_db OUT [--frames RUN1 RUN2] [--stacks N] [--rows-per-frame N] [--scale X] [--seed N]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "fixture_shape.h"
#include "memtracer/store/schema.h"

namespace {

struct Args {
    std::string out;
    mt::fixture::Shape shape;
};

double number(const char *s, const char *what) {
    char *end = nullptr;
    double v = std::strtod(s, &end);
    if (!end || *end || end == s) throw std::runtime_error(std::string("bad ") + what + ": '" + s + "'");
    return v;
}

Args parse(int argc, char **argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string k = argv[i];
        auto need = [&](int n) {
            if (i + n >= argc) throw std::runtime_error(k + " needs " + std::to_string(n) + " value(s)");
        };
        if (k == "--frames") {
            need(2);
            a.shape.frames[0] = static_cast<int>(number(argv[++i], "--frames"));
            a.shape.frames[1] = static_cast<int>(number(argv[++i], "--frames"));
        } else if (k == "--stacks") {
            need(1);
            a.shape.stacks = static_cast<int>(number(argv[++i], "--stacks"));
        } else if (k == "--rows-per-frame") {
            need(1);
            a.shape.rows_per_frame = static_cast<int>(number(argv[++i], "--rows-per-frame"));
        } else if (k == "--scale") {
            need(1);
            a.shape.scale = number(argv[++i], "--scale");
        } else if (k == "--seed") {
            need(1);
            a.shape.seed = static_cast<uint32_t>(number(argv[++i], "--seed"));
        } else if (!k.empty() && k[0] != '-' && a.out.empty()) {
            a.out = k;
        } else {
            throw std::runtime_error("unknown argument '" + k + "'");
        }
    }
    if (a.out.empty()) throw std::runtime_error("usage: mt_make_fixture_db OUT [--frames RUN1 RUN2] [--stacks N] "
                                                "[--rows-per-frame N] [--scale X] [--seed N]");
    return a;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        Args a = parse(argc, argv);
        // Written beside, then renamed: a build stopped half-way leaves no half database.
        const std::string tmp = a.out + ".tmp";
        mt::store::remove_database(tmp);
        {
            auto opened = mt::store::open_database(tmp);
            mt::fixture::write(opened.db, a.shape);
            mt::store::finish_database(opened.db);
        }
        std::filesystem::rename(tmp, a.out);
        std::fprintf(stderr, "wrote %s\n", a.out.c_str());
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "mt_make_fixture_db: %s\n", e.what());
        return 1;
    }
}
