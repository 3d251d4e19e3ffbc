// static_files.h — the page's files, served from one folder only.
#ifndef MEMTRACER_VIEWER_STATIC_FILES_H
#define MEMTRACER_VIEWER_STATIC_FILES_H

#include <filesystem>
#include <string>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

class StaticFiles {
public:
    explicit StaticFiles(std::filesystem::path root);
    // `raw_path` is the request path still percent-encoded. Refuses (400) anything that could
    // leave the folder: "..", backslashes, NUL, dot-files, symlinks pointing out; 404 otherwise
    // missing. "/" serves index.html.
    Response get(const std::string &raw_path) const;
    const std::filesystem::path &root() const { return root_; }

private:
    std::filesystem::path root_;  // canonical
};

const char *content_type_for(const std::filesystem::path &p);

}  // namespace mt::viewer

#endif
