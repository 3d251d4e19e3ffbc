// spec.h — between a Request and a typed query (memtracer/viewer/results.h): the client strings
// of a RangeSpec/FilterSpec/Page read from an endpoint's Params, and back into Params inside
// compute, so a typed caller (memtracer-report) gets the endpoint's own checks and 400s.
#ifndef MEMTRACER_VIEWER_SPEC_H
#define MEMTRACER_VIEWER_SPEC_H

#include <optional>

#include "filter.h"
#include "model.h"
#include "params.h"

namespace mt::viewer {

RangeSpec range_spec(const Params &p);
FilterSpec filter_spec(const Params &p);
Group group_param(const Params &p);
LifetimeMetric lifetime_metric_param(const Params &p, bool leaks);

// The Params a typed query stands for: from/to, the filter and (when given) limit/offset.
class SpecParams {
public:
    SpecParams(const RangeSpec &r, const FilterSpec &f, std::optional<Page> page = std::nullopt);
    const Params &params() const { return params_; }

private:
    Request req_;
    Params params_;
};

// What compute does first for every run-scoped typed query: the run (404), the range and the
// filter, checked as the endpoint checks them.
struct Scope {
    RunRow run;
    Range range;
    Filter filter;
};
Scope open_scope(Database &db, int64_t run, const SpecParams &sp);
// The page, checked against [1, max_limit] as page_params() does.
Page checked_page(const SpecParams &sp, int64_t def_limit, int64_t max_limit);

}  // namespace mt::viewer

#endif
