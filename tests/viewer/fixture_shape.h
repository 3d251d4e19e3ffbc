// fixture_shape.h — what make_fixture_db writes (fixture_shape.cpp): two runs of two builds of a
// small game, every row through store/'s named statements.
#ifndef MT_TESTS_FIXTURE_SHAPE_H
#define MT_TESTS_FIXTURE_SHAPE_H

#include <cstdint>

#include "memtracer/store/db.h"

namespace mt::fixture {

struct Shape {
    int frames[2] = {240, 300};  // frames of run 1 and run 2
    int stacks = 0;              // stacks per run (0: only the base stacks)
    int rows_per_frame = 1000;   // (class, stack) rows per frame at most
    double scale = 1.0;          // multiplies every allocation count
    uint32_t seed = 7;
};

// Writes both runs into `db` (opened by store::open_database) in one transaction.
void write(store::Db &db, const Shape &shape);

}  // namespace mt::fixture

#endif
