// clickhouse.h — a ClickHouse server over its HTTP interface (Boost.Beast, blocking): one SQL
// statement per request, data in TabSeparated. Only SQL that both Debian's 18.16 and current
// releases accept is sent (docs/clickhouse.md lists that subset).
#ifndef MEMTRACER_FLEET_CLICKHOUSE_H
#define MEMTRACER_FLEET_CLICKHOUSE_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mt::fleet {

// `clickhouse://host:port/db`, parsed. Throws std::invalid_argument naming the URL.
struct ClickHouseUrl {
    std::string host;
    uint16_t port = 8123;
    std::string database;
    std::string text;  // as given, for messages
    static ClickHouseUrl parse(std::string_view url);
    static bool is_url(std::string_view s) { return s.substr(0, 13) == "clickhouse://"; }
};

// A failure talking to ClickHouse; what() names the URL and the server's reason.
struct ClickHouseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class ClickHouse {
public:
    explicit ClickHouse(ClickHouseUrl url) : url_(std::move(url)) {}
    const ClickHouseUrl &url() const { return url_; }
    // Runs `sql` (in the URL's database unless `in_database` is false); `data` is the body of an
    // INSERT ... FORMAT TabSeparated. Returns the answer's body (TabSeparated for a SELECT).
    std::string execute(const std::string &sql, const std::string &data = "", bool in_database = true);
    // SELECT answers as rows of TabSeparated fields (unescaped).
    std::vector<std::vector<std::string>> rows(const std::string &sql);

private:
    ClickHouseUrl url_;
};

// TabSeparated escaping of one field (backslash, tab, newline, NUL) and its reverse.
void append_tsv(std::string &out, std::string_view field);
std::string unescape_tsv(std::string_view field);
// A string literal for SQL text: 'it\'s'.
std::string sql_quote(std::string_view s);

}  // namespace mt::fleet

#endif
