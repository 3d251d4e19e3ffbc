#include "app.h"
#include "clickhouse.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace mt::viewer {

namespace fs = std::filesystem;

namespace {
fs::path self_dir() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : p.parent_path();
}

Options prepared(Options o) {
    if (o.web.empty()) o.web = default_web_dir();
    if (o.symbolizer.empty()) o.symbolizer = default_symbolizer();
    if (fleet::ClickHouseUrl::is_url(o.db)) return o;  // served from ClickHouse (docs/clickhouse.md)
    std::error_code ec;
    if (!fs::exists(o.db, ec)) {
        // Serving uploads only: start from an empty database the symbolizer will fill.
        if (o.data.empty() && o.live.empty()) throw std::runtime_error("no database at " + o.db + " (give --data DIR to start empty)");
        create_empty_database(o.db);
    }
    o.db = fs::absolute(o.db).string();
    return o;
}
}  // namespace

std::string default_web_dir() { return (self_dir().parent_path() / "viewer-web").string(); }
std::string default_symbolizer() { return (self_dir() / "memtracer-symbolize").string(); }

App::App(Options opts)
    : opts_(prepared(std::move(opts))),
      pool_(opts_.db),
      static_(opts_.web),
      jobs_(JobConfig{opts_.data, opts_.symbols, opts_.db, opts_.symbolizer}, [this] { pool_.refresh(); }) {
    pool_.local();  // throws now, with SQLite's reason, for a file that is not a database
}

LiveMode &App::start_live() {
    LiveOptions lo{opts_.live, opts_.live_token, opts_.live_symbol_args, opts_.live_listen, opts_.live_out};
    live_ = std::make_unique<LiveMode>(lo, opts_.db, opts_.symbolizer, [this] { pool_.refresh(); });
    return *live_;
}

std::optional<std::string> App::upload_file() {
    if (!jobs_.enabled()) return std::nullopt;
    return jobs_.incoming_path();
}

std::optional<LiveView> App::live() {
    if (!live_) return std::nullopt;
    return live_->view();
}

bool App::live_send(LiveControl c, const std::string &label) { return live_ && live_->send(c, label); }

}  // namespace mt::viewer
