// params.h — typed, validated access to a request's query parameters. Every failure is an
// ApiError(400) that names the parameter, so a client learns exactly what to fix.
#ifndef MEMTRACER_VIEWER_PARAMS_H
#define MEMTRACER_VIEWER_PARAMS_H

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

class Params {
public:
    // Refuses parameters the endpoint does not know and parameters given twice: a typo such as
    // `?form=3` must not silently mean "whole run".
    Params(const Request &req, std::initializer_list<std::string_view> allowed);

    std::optional<std::string_view> get(std::string_view name) const;
    std::optional<int64_t> opt_int(std::string_view name, int64_t min, int64_t max) const;
    int64_t integer(std::string_view name, int64_t def, int64_t min, int64_t max) const;
    std::optional<double> opt_real(std::string_view name, double min, double max) const;
    // One of `options`; `def` when absent.
    std::string_view choice(std::string_view name, std::initializer_list<std::string_view> options,
                            std::string_view def) const;
    bool flag(std::string_view name, bool def) const;

private:
    const Request &req_;
};

// Parses a whole decimal integer in [min, max]; throws ApiError(400, ..., what).
int64_t parse_int(std::string_view s, int64_t min, int64_t max, const std::string &what);

}  // namespace mt::viewer

#endif
